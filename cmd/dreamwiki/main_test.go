package main

import (
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

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
	}})
}

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
