package mdline

// BlockID finds an Obsidian block id, "^id", at the end of a line (blanks
// after it allowed) and returns the id and the index of '^', or at = -1.
// The '^' starts the line or follows a blank; the id is ASCII letters,
// digits and '-'.
func BlockID[T bytestring](line T) (id string, at int) {
	end := len(line)
	for end > 0 && isSpace(line[end-1]) {
		end--
	}
	i := end
	for i > 0 && isIDByte(line[i-1]) {
		i--
	}
	if i == end || i == 0 || line[i-1] != '^' {
		return "", -1
	}
	at = i - 1
	if at > 0 && !isSpace(line[at-1]) {
		return "", -1
	}
	return string(line[i:end]), at
}

func isIDByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-'
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }
