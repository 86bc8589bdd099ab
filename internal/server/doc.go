// Package server is dreamwiki's serve mode: it builds a workspace into
// memory, serves the site on loopback, watches the workspace and rebuilds
// what an edit touches (build.Session), tells open pages to reload over a
// websocket, and runs dreams on demand.
//
// Routes of its own live under /_dreamwiki/ (the websocket, the client
// script and style) and /api/ (search, get, dream), so they never collide
// with note URLs. Every other path is a file of the built site, looked up
// in memory: nothing outside the output is ever served, nor dotfiles or
// backups.
//
// One goroutine owns the build (the rebuild loop); HTTP handlers read
// the in-memory site and immutable snapshots of the workspace. The server
// never writes to the workspace except through the dream engine (dreams
// and recall events), only for requests it trusts (its token, from its
// own pages or a program that has it; never another site's), and not at
// all with ReadOnly. Files of the workspace it serves run no script as
// the wiki (Content-Security-Policy: sandbox).
package server
