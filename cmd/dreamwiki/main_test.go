package main

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/history/historytest"
)

// TestMain lets testscript run the real command in-process as "dreamwiki".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"dreamwiki": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI flows in testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Cmds: map[string]func(*testscript.TestScript, bool, []string){
		"gitcommit": gitCommit,
		"linkcheck": linkCheck,
	}})
}

// linkCheck is the script command "linkcheck DIR": every relative link
// of the site DIR/site (pages, twins, llms.txt, the API, the graph, the
// sitemaps) must point at a file, and an anchor at an id of it
// (buildtest's link checker).
func linkCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: linkcheck DIR")
	}
	tb := &scriptTB{ts: ts}
	pages := buildtest.Open(tb, ts.MkAbs(args[0])).AssertLinksResolve()
	if tb.failed {
		ts.Fatalf("broken links")
	}
	ts.Logf("%d pages, every link resolves", pages)
}

// scriptTB lets testing.TB helpers report into a script: the methods the
// link checker calls; the embedded interface is nil and never called.
type scriptTB struct {
	testing.TB
	ts     *testscript.TestScript
	failed bool
}

func (s *scriptTB) Helper()                        {}
func (s *scriptTB) Errorf(format string, a ...any) { s.failed = true; s.ts.Logf(format, a...) }
func (s *scriptTB) Fatal(a ...any)                 { s.ts.Fatalf("%s", fmt.Sprint(a...)) }
func (s *scriptTB) Fatalf(format string, a ...any) { s.ts.Fatalf(format, a...) }

// gitCommit is the script command "gitcommit DIR TIME": commit every file
// of DIR at TIME (RFC 3339), with go-git, for the --as-of and diff flows.
func gitCommit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gitcommit DIR TIME")
	}
	when, err := time.Parse(time.RFC3339, args[1])
	ts.Check(err)
	_, err = historytest.Commit(ts.MkAbs(args[0]), when, "at "+args[1])
	ts.Check(err)
}
