package archive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/atomicfile"
)

// StateFile is the archive's watermark file, under archives/. Its name
// starts with a dot, so the workspace reader never reads or publishes it.
const StateFile = "archives/.archive-state.json"

// state is what a run remembers for the next one.
type state struct {
	Version int `json:"version"`
	// Files are the transcripts read so far, by path: how far, and where
	// their messages go. A transcript stays here after OpenClaw resets its
	// session key to a new one, so messages written to it after the last
	// run are still archived.
	Files map[string]*fileState `json:"files"`
	// Topics are the archived topics, by "channel/folder/topic".
	Topics map[string]*topicState `json:"topics"`
	// Renames put a run's raw files in place. The state that lists them
	// is saved before the first of them is made, with the watermarks they
	// go with: a run killed part way through its renames is finished by
	// the next one (finishRenames), so the raw files and the watermarks
	// never disagree and no message is appended twice. One already made
	// is left out when its temporary file is gone.
	Renames []rename `json:"renames,omitempty"`
}

// rename is a raw file's temporary file and its target, both relative to
// the workspace.
type rename struct {
	Temp   string `json:"temp"`
	Target string `json:"target"`
}

type fileState struct {
	Format  format    `json:"format"`
	Key     string    `json:"key,omitempty"` // OpenClaw's session key
	Channel string    `json:"channel"`
	GroupID string    `json:"group"`
	Topic   string    `json:"topic"`
	Offset  int64     `json:"offset"` // bytes read: complete lines only
	Line    int       `json:"line"`
	Last    time.Time `json:"last"` // time of the last message archived
}

type topicState struct {
	Channel  string `json:"channel"`
	Folder   string `json:"folder"`
	GroupID  string `json:"group"`
	Topic    string `json:"topic"`
	Title    string `json:"title,omitempty"` // a session name the transcript gave
	Messages int    `json:"messages"`
	// Days counts messages per day (YYYY-MM-DD): one raw file each.
	Days map[string]int `json:"days"`
	// Lines is each raw file's line count, so an appended message knows
	// its line number without reading the file.
	Lines        map[string]int `json:"lines"`
	Participants map[string]int `json:"participants"`
	// Summarised is Messages when the summary was last written.
	Summarised int `json:"summarised"`
	// Decisions are the summary's decisions, for the group's digest.
	Decisions []cite `json:"decisions,omitempty"`
}

func loadState(ws string) (*state, error) {
	s := &state{Version: 1, Files: map[string]*fileState{}, Topics: map[string]*topicState{}}
	data, err := os.ReadFile(filepath.Join(ws, StateFile))
	if os.IsNotExist(err) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("%s: %s; move it aside to archive everything again", StateFile, jsonProblem(err))
	}
	if s.Files == nil {
		s.Files = map[string]*fileState{}
	}
	if s.Topics == nil {
		s.Topics = map[string]*topicState{}
	}
	return s, nil
}

// finishRenames makes the renames a saved state lists that are not made
// yet, then removes every temporary file left under archives/ by a run
// killed before its state was saved (atomicfile.RemoveTemps).
func (s *state) finishRenames(ws string) error {
	for _, r := range s.Renames {
		err := os.Rename(filepath.Join(ws, filepath.FromSlash(r.Temp)), filepath.Join(ws, filepath.FromSlash(r.Target)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("finishing the last run's raw file %s: %w", r.Target, err)
		}
	}
	s.Renames = nil
	return atomicfile.RemoveTemps(filepath.Join(ws, "archives"))
}

func (s *state) save(ws string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(ws, StateFile), append(data, '\n'))
}
