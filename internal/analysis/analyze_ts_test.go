package analysis

// These tests run assets/search/analyze.ts under node, bundled by esbuild's
// Go API as the site bundles it, and compare it with the Go analysis:
// on the shared vectors, on random text, and code point by code point on
// the tables. Without node on PATH they skip (CI installs node).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// tsRunner is the node side of the tests. It imports the module exactly as
// written and answers one of three requests:
//
//	vectors FILE  compare analyze() with the tokens of each vector, print mismatches
//	tokens FILE   analyzeTokens() of each string of a JSON array, offsets in UTF-8 bytes
//	tables        FNV-1a hash of class and fold of each block of 0x1000 code points
const tsRunner = `
import * as fs from "fs";
import { analyze, analyzeTokens, classifyForTest } from "./analyze";

function utf8Len(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// byteOffsets maps each UTF-16 offset of text to its UTF-8 byte offset.
// A lone surrogate counts three bytes, as U+FFFD does in Go.
function byteOffsets(text: string): number[] {
  const out: number[] = new Array(text.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const n = cp > 0xffff ? 2 : 1;
    out[i] = b;
    if (n === 2) out[i + 1] = b;
    b += utf8Len(cp);
    i += n;
  }
  out[text.length] = b;
  return out;
}

const [mode, file] = process.argv.slice(2);
if (mode === "vectors") {
  const vectors: { name: string; input: string; tokens: string[] }[] = JSON.parse(fs.readFileSync(file, "utf8"));
  let bad = 0;
  for (const v of vectors) {
    const got = analyze(v.input);
    if (JSON.stringify(got) !== JSON.stringify(v.tokens)) {
      bad++;
      console.log(v.name + ": analyze(" + JSON.stringify(v.input) + ")\n   got " + JSON.stringify(got) + "\n  want " + JSON.stringify(v.tokens));
    }
  }
  console.log(vectors.length + " vectors, " + bad + " mismatches");
  process.exitCode = bad ? 1 : 0;
} else if (mode === "tokens") {
  const inputs: string[] = JSON.parse(fs.readFileSync(file, "utf8"));
  const out = inputs.map((text) => {
    const off = byteOffsets(text);
    return analyzeTokens(text).map((t) => ({ Term: t.term, Start: off[t.start], End: off[t.end], Pos: t.pos }));
  });
  process.stdout.write(JSON.stringify(out));
} else if (mode === "tables") {
  const enc = new TextEncoder();
  const hashes: number[] = [];
  let h = 0x811c9dc5;
  const add = (b: number): void => {
    h = Math.imul(h ^ b, 0x01000193) >>> 0;
  };
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const [cls, fold] = classifyForTest(cp);
    add(cls);
    enc.encode(fold).forEach(add);
    add(0xff);
    if ((cp & 0xfff) === 0xfff) {
      hashes.push(h);
      h = 0x811c9dc5;
    }
  }
  process.stdout.write(JSON.stringify(hashes));
}
`

// nodeRunner bundles tsRunner with analyze.ts and returns a function that
// runs it under node; it skips the test when node is missing.
func nodeRunner(t *testing.T) func(args ...string) ([]byte, error) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH, so the TypeScript analysis (assets/search/analyze.ts) is not checked here; CI installs node")
	}
	dir, err := filepath.Abs(filepath.Dir(tablesTSFile))
	if err != nil {
		t.Fatal(err)
	}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   tsRunner,
			ResolveDir: dir,
			Sourcefile: "analyze_runner.ts",
			Loader:     api.LoaderTS,
		},
		Bundle:   true,
		Format:   api.FormatESModule,
		Platform: api.PlatformNode,
		Target:   api.ES2020,
		Write:    false,
		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		t.Fatalf("esbuild could not bundle %s:\n%s", tablesTSFile, strings.Join(msgs, "\n"))
	}
	script := filepath.Join(t.TempDir(), "analyze_runner.mjs")
	if err := os.WriteFile(script, res.OutputFiles[0].Contents, 0o644); err != nil {
		t.Fatal(err)
	}
	return func(args ...string) ([]byte, error) {
		cmd := exec.Command(node, append([]string{script}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			err = fmt.Errorf("node %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
		}
		return out, err
	}
}

func TestAnalyzeTSMatchesVectors(t *testing.T) {
	run := nodeRunner(t)
	abs, err := filepath.Abs(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run("vectors", abs)
	if err != nil {
		t.Fatalf("assets/search/analyze.ts disagrees with %s:\n%v", vectorsFile, err)
	}
	t.Logf("%s", bytes.TrimSpace(out))
}

// TestAnalyzeTSMatchesGoOnRandomText compares every token, offsets and
// positions included, on random text from an alphabet rich in the cases
// the rules single out.
func TestAnalyzeTSMatchesGoOnRandomText(t *testing.T) {
	run := nodeRunner(t)
	rng := rand.New(rand.NewPCG(20261021, 4031))
	inputs := make([]string, 1000)
	for i := range inputs {
		if i%3 == 0 {
			// Identifier-like ASCII, where the cutting rules are busiest.
			const alphabet = "aAbBsStTxXzZ0123456789 .-_/:@\\"
			b := make([]byte, 1+rng.IntN(16))
			for k := range b {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			}
			inputs[i] = string(b)
			continue
		}
		inputs[i] = randomText(rng, 1+rng.IntN(40))
	}
	file := filepath.Join(t.TempDir(), "inputs.json")
	data, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run("tokens", file)
	if err != nil {
		t.Fatal(err)
	}
	var ts [][]Token
	if err := json.Unmarshal(out, &ts); err != nil {
		t.Fatalf("reading node's tokens: %v", err)
	}
	if len(ts) != len(inputs) {
		t.Fatalf("node analysed %d texts, want %d", len(ts), len(inputs))
	}
	bad := 0
	for i, text := range inputs {
		goToks := AnalyzeTokens(text)
		if fmt.Sprint(goToks) != fmt.Sprint(ts[i]) {
			bad++
			if bad <= 10 {
				t.Errorf("AnalyzeTokens(%+q)\n  go %+v\n  ts %+v", text, goToks, ts[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("Go and TypeScript disagree on %d of %d random texts", bad, len(inputs))
	}
}

// randomAlphabet holds the pieces random text is made of: each entry is
// picked whole, so multi-rune pieces (combining sequences, emoji) survive.
var randomAlphabet = []string{
	"a", "b", "e", "t", "T", "x", "Z", "A", "B", "C", "S", "H", "P", "s", "0", "1", "2", "9",
	" ", " ", " ", "\n", "\t", ".", ".", "-", "_", "/", ":", "@", "\\", ",", "!", "?", "#", "+", "=", "'", "(", ")", "*", "`",
	"é", "É", "e\u0301", "\u0301", "\u0308", "ß", "ẞ", "ł", "Ł", "ø", "æ", "Œ", "þ", "ð", "ı", "İ", "ǅ", "ĳ", "ŀ", "ﬁ",
	"Σ", "ς", "σ", "ΐ", "Ё", "й", "Й", "ї", "ж", "Ж", "Ա", "ა", "Ꭰ", "ꭰ", "K", "ſ", "µ",
	"²", "①", "Ⅻ", "½", "℃", "™", "٣", "५", "１", "Ａ", "ｚ", "＿", "．", "／", "＠", "\u3000",
	"中", "文", "東", "京", "猫", "𠀀", "\uF900", "々", "か", "が", "\u3099", "\u309A", "ｶ", "ﾞ", "ﾟ", "ﾊ", "ー", "タ", "ヴ",
	"한", "글", "\u1100", "\u1161", "\u11A8", "ㅋ", "ﾡ",
	"م", "ـ", "\u064E", "ש", "\u05B8", "\u200F", "\u202B", "न", "\u094D", "\u093E", "ภ", "\u0E48",
	"😀", "👍🏽", "❤\uFE0F", "\u200D", "\u200B", "\u200C", "\u00AD", "\uFEFF", "\U000E0100", "\u00A0", "\u2009", "\u2010",
	"\uFFFD", "\U0010FFFF", "\u0378", "\x00", "\x1b",
	// Whole shapes the rules single out.
	"2026-10-21T08:10:37Z", "1t2", "9T", "getHTTP2Response", "URLs", "v2Beta", "3DModel", "ΑλφαΒήτα", "10.0.0.1:8080", "://",
}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		if rng.IntN(8) == 0 {
			// A random scalar value anywhere in the code space, so that
			// the differential test is not limited to the pieces above.
			r := rune(rng.IntN(0x110000))
			if !utf8.ValidRune(r) {
				r = 0xFFFD
			}
			b.WriteRune(r)
			continue
		}
		b.WriteString(randomAlphabet[rng.IntN(len(randomAlphabet))])
	}
	return b.String()
}

// TestAnalyzeTSTablesMatchGo compares the class and fold of every code
// point, as the TypeScript module decodes its tables, with the Go tables.
func TestAnalyzeTSTablesMatchGo(t *testing.T) {
	run := nodeRunner(t)
	out, err := run("tables")
	if err != nil {
		t.Fatal(err)
	}
	var ts []uint32
	if err := json.Unmarshal(out, &ts); err != nil {
		t.Fatalf("reading node's hashes: %v", err)
	}
	var goHashes []uint32
	h := fnv.New32a()
	var fold []byte
	for r := rune(0); r <= utf8.MaxRune; r++ {
		cls, f := classifyRune(r, fold[:0])
		fold = f
		h.Write([]byte{cls})
		h.Write(fold)
		h.Write([]byte{0xFF})
		if r&0xFFF == 0xFFF {
			goHashes = append(goHashes, h.Sum32())
			h.Reset()
		}
	}
	if len(ts) != len(goHashes) {
		t.Fatalf("node hashed %d blocks, Go %d", len(ts), len(goHashes))
	}
	for i := range ts {
		if ts[i] != goHashes[i] {
			t.Errorf("code points U+%04X..U+%04X: the TypeScript tables disagree with Go", i<<12, i<<12|0xFFF)
		}
	}
}

// classifyRune is the class and fold of one code point as the segmenter
// sees them (the fold of separators and invisible code points is empty).
// Surrogates, which Go strings cannot hold, are separators.
func classifyRune(r rune, dst []byte) (uint8, []byte) {
	if r < utf8.RuneSelf {
		cls := asciiClass[r]
		switch cls {
		case clsSep:
		case clsUpper:
			dst = append(dst, byte(r+'a'-'A'))
		default:
			dst = append(dst, byte(r))
		}
		return cls, dst
	}
	e := &runeRanges[lookupRange(r, 0)]
	cls := e.classOf(r)
	if cls == clsSep || cls == clsIgnore {
		return cls, dst
	}
	return cls, e.appendFold(dst, r)
}
