package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// extract writes the tree of w's commit from the bare git directory gitDir
// into dest. A snapshot lacks its largest blobs (see the fetch tool's
// limits), so `git archive` fails on it; blobs the snapshot lacks are
// skipped and counted. Symbolic links and submodules are skipped: a
// workspace copy must not point outside itself.
func extract(gitDir, commit, dest string) (files, missing int, err error) {
	ls, err := exec.Command("git", "--git-dir="+gitDir, "ls-tree", "-r", "-z", commit).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("git ls-tree %s in %s: %w", commit, gitDir, err)
	}
	type blob struct{ mode, sha, path string }
	var blobs []blob
	for _, e := range bytes.Split(ls, []byte{0}) {
		meta, p, ok := bytes.Cut(e, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[1] != "blob" || f[0] == "120000" {
			continue
		}
		blobs = append(blobs, blob{f[0], f[2], string(p)})
	}
	cmd := exec.Command("git", "--git-dir="+gitDir, "cat-file", "--batch")
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	r := bufio.NewReader(outp)
	for _, b := range blobs {
		if _, err := fmt.Fprintln(in, b.sha); err != nil {
			return files, missing, err
		}
		hdr, err := r.ReadString('\n')
		if err != nil {
			return files, missing, err
		}
		if strings.HasSuffix(hdr, " missing\n") {
			missing++
			continue
		}
		f := strings.Fields(hdr)
		size, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			return files, missing, fmt.Errorf("git cat-file: %q", hdr)
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(r, data); err != nil {
			return files, missing, err
		}
		p := filepath.Join(dest, filepath.FromSlash(b.path))
		if !strings.HasPrefix(p, filepath.Clean(dest)+string(filepath.Separator)) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return files, missing, err
		}
		if err := os.WriteFile(p, data[:size], 0o644); err != nil {
			return files, missing, err
		}
		files++
	}
	in.Close()
	return files, missing, cmd.Wait()
}
