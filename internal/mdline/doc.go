// Package mdline recognises the block structure of Markdown one line at a
// time (fenced code, headings, list items, tables, quotes, thematic
// breaks, front matter and block ids) by prefix checks only, in one form
// for every package that reads Markdown without parsing it: the workspace
// reader, evidence blocks, search chunks and the comment stripper run on
// every line of every file and must agree on where code starts and ends.
// It imports nothing of dreamwiki's.
//
// The rules follow CommonMark as goldmark renders it, so a line the site
// shows as code is code for every reader. Functions take a line "trimmed"
// of its indentation (see Indent); where indentation matters (indented
// code, list continuation) the caller decides, since it depends on the
// blocks around the line.
package mdline
