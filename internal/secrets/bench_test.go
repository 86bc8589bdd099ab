package secrets

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// benchText is about 4 MiB of ordinary memory notes with a secret every
// ~64 KiB, the shape of a large real workspace. ordinary.txt is dense with
// the guard's keywords (token, key, password …), so this is a worst case
// for the keyword prefilter.
func benchText(b *testing.B) string {
	b.Helper()
	ord, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for sb.Len() < 4<<20 {
		sb.Write(ord)
		sb.WriteString("password: hunter2\nAuthorization: Bearer abc123def456ghi\n" + fakeGitHub + "\n")
	}
	return sb.String()
}

// demoNotes returns the notes of the demo workspace (internal/demo), a
// realistic agent memory with a few planted secrets, repeated to about
// 4 MiB, one string per note: a build calls the guard once per note.
func demoNotes(b *testing.B) ([]string, int) {
	b.Helper()
	files, err := demoNoteFiles(b)
	if err != nil || len(files) == 0 {
		b.Skipf("demo workspace: %v", err)
	}
	var notes []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		notes = append(notes, files[name])
	}
	var out []string
	size := 0
	for size < 4<<20 {
		for _, n := range notes {
			out = append(out, n)
			size += len(n)
		}
	}
	return out, size
}

// demoNoteFiles returns the Markdown notes of the demo workspace by path.
func demoNoteFiles(tb testing.TB) (map[string]string, error) {
	tb.Helper()
	notes := map[string]string{}
	err := filepath.WalkDir("../demo/workspace", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		t, err := os.ReadFile(p)
		notes[filepath.ToSlash(p)] = string(t)
		return err
	})
	return notes, err
}

func BenchmarkScan(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Scan(text)
	}
}

func BenchmarkScan_Notes(b *testing.B) {
	notes, size := demoNotes(b)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range notes {
			Scan(n)
		}
	}
}

// BenchmarkScanPersonal_Notes is the personal-data pass a build makes over
// every published note, on the demo's notes.
func BenchmarkScanPersonal_Notes(b *testing.B) {
	notes, size := demoNotes(b)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range notes {
			ScanPersonal(n)
		}
	}
}

func BenchmarkContains_Clean(b *testing.B) {
	ord, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(ord), (4<<20)/len(ord))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if Contains(text) {
			b.Fatal("ordinary text has a secret")
		}
	}
}

func BenchmarkRedact(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Redact(text)
	}
}

// BenchmarkScan_Adversarial feeds 1 MiB of one trigger repeated, to show
// that no input makes the scan superlinear.
func BenchmarkScan_Adversarial(b *testing.B) {
	for name, unit := range map[string]string{
		"begin":    "-----BEGIN RSA PRIVATE KEY-----",
		"scheme":   "a://",
		"userinfo": "https://u:p",
		"password": "password: ",
		"pass":     " pass ",
		"bearer":   "Bearer ",
		"jwt":      "eyJabcdefghij.",
		"cjk":      "密码",
		"token":    "token: ",
		"key":      "api_key=",
		"curl":     "curl -H x -u y\n",
		"mysql":    "mysql -p ",
		"split":    "abcdefgh12\n- xyz9\n",
		"near":     "discord ",
	} {
		text := strings.Repeat(unit, (1<<20)/len(unit))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Redact(text)
			}
		})
	}
}
