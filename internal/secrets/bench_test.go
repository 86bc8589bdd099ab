package secrets

import (
	"os"
	"strings"
	"testing"
)

// benchText is about 4 MiB of ordinary memory notes with a secret every
// ~64 KiB, the shape of a large real workspace.
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

func BenchmarkScan(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}

func BenchmarkContains_Clean(b *testing.B) {
	ord, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(ord), (4<<20)/len(ord))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if Contains(text) {
			b.Fatal("ordinary text has a secret")
		}
	}
}

func BenchmarkRedact(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
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
