// Package historytest makes git histories for tests: it commits a
// folder's files at a chosen time with go-git, so tests of --as-of and
// diff need no git binary. Tests and bench/history import it.
package historytest

import (
	"errors"
	"fmt"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit records every file in dir (a git repository, made when it is
// not one yet) as a commit at when, and returns the commit's hash.
func Commit(dir string, when time.Time, msg string) (string, error) {
	repo, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		repo, err = git.PlainInit(dir, false)
	}
	if err != nil {
		return "", fmt.Errorf("opening the repository in %s: %w", dir, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return "", fmt.Errorf("adding the files of %s: %w", dir, err)
	}
	sig := &object.Signature{Name: "dreamwiki test", Email: "test@dreamwiki.invalid", When: when}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		return "", fmt.Errorf("committing %s: %w", dir, err)
	}
	return h.String(), nil
}
