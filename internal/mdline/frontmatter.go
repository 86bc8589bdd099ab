package mdline

// FrontMatterOpens reports whether the first line of a file opens a YAML
// front matter block: exactly "---", trailing blanks tolerated as Obsidian
// tolerates them.
func FrontMatterOpens[T bytestring](line T) bool { return delimiter(line, "---") }

// FrontMatterCloses reports whether a line closes a front matter block:
// "---" or YAML's "...", trailing blanks tolerated.
func FrontMatterCloses[T bytestring](line T) bool {
	return delimiter(line, "---") || delimiter(line, "...")
}

func delimiter[T bytestring](line T, d string) bool {
	return len(line) >= len(d) && string(line[:len(d)]) == d && isBlank(line[len(d):])
}

// FrontMatterEnd returns the number of lines a front matter block takes at
// the start of lines, 0 when there is none (or it is never closed).
func FrontMatterEnd(lines []string) int {
	if len(lines) == 0 || !FrontMatterOpens(lines[0]) {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if FrontMatterCloses(lines[i]) {
			return i + 1
		}
	}
	return 0
}
