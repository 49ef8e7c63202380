package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"

	"github.com/dankyu/dankyu/ledger"
)

// LogKeyName is the name of keys made before a log had an origin of its
// own; new keys are named after the log's origin (C2SP's convention).
const LogKeyName = "dankyu-events"

// LoadLogKey reads the event log's signing key file: the note signer key
// on its first line, the verifier key on its second. A missing file is an
// error wrapping fs.ErrNotExist: a key is made only by CreateLogKey, on an
// empty log or a rotation the operator asked for, never to stand in for a
// lost one. The key is kept outside the database so that whoever can
// rewrite the database cannot sign a rewritten log.
func LoadLogKey(path string) (skey, vkey string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", fmt.Errorf("read log key: %w", err)
	}
	lines := strings.Fields(string(b))
	if len(lines) != 2 {
		return "", "", fmt.Errorf("log key %s: want the signer key and the verifier key on two lines", path)
	}
	if _, err := ledger.NewNotary(lines[0], lines[1], ledger.NotaryOptions{}); err != nil {
		return "", "", fmt.Errorf("log key %s: %w", path, err)
	}
	return lines[0], lines[1], nil
}

// CreateLogKey makes a new key named name in a new file of mode 0600; a
// file already there (another process's) is read, not replaced.
func CreateLogKey(path, name string) (skey, vkey string, err error) {
	skey, vkey, err = note.GenerateKey(rand.Reader, name)
	if err != nil {
		return "", "", fmt.Errorf("generate log key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", "", fmt.Errorf("log key folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadLogKey(path)
	}
	if err != nil {
		return "", "", fmt.Errorf("create log key: %w", err)
	}
	if _, err := fmt.Fprintf(f, "%s\n%s\n", skey, vkey); err != nil {
		f.Close()
		return "", "", fmt.Errorf("write log key: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", "", fmt.Errorf("write log key: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", "", fmt.Errorf("write log key: %w", err)
	}
	return skey, vkey, nil
}

// LogKeyPath is where the log key is: the setting, or log.key in the data
// folder (beside the cluster's own folders, also with an outside database).
func LogKeyPath(setting, dataDir string) string {
	if setting != "" {
		return setting
	}
	return filepath.Join(dataDir, "log.key")
}

// LogHeadPath is where the last checkpoint signed is kept: the setting,
// or log.head beside the key.
func LogHeadPath(setting, keyPath string) string {
	if setting != "" {
		return setting
	}
	return filepath.Join(filepath.Dir(keyPath), "log.head")
}

// oldKeyPath is where an operator rotating the key leaves the old one, so
// that it co-signs the hand-over.
func oldKeyPath(keyPath string) string { return keyPath + ".old" }

// readKeptHead reads the kept head: nil when there is none.
func readKeptHead(path string) (*ledger.SignedHead, string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	s, vkey, err := ledger.DecodeKeptHead(b)
	if err != nil {
		return nil, "", err
	}
	return &s, vkey, nil
}

// writeKeptHead replaces the kept head atomically: a new file (mode 0600)
// written and synced, renamed over the old, the folder synced, so a crash
// leaves the old head or the new, never half of one.
func writeKeptHead(path, vkey string, s ledger.SignedHead) error {
	b, err := ledger.EncodeKeptHead(vkey, s)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".log.head-*")
	if err != nil {
		return fmt.Errorf("keep head: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, there is nothing there
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("keep head: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("keep head: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("keep head: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("keep head: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("keep head: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// logKeys is the key the server signs with, found at start, and the
// rotation to record, if any.
type logKeys struct {
	skey, vkey string
	rotation   *ledger.LogKeyRotatedPayload
	old        note.Signer // the old key, co-signing the rotation; nil when gone
}

// keyState is what the start knows of the log before choosing its key.
type keyState struct {
	keyPath, headPath, origin string
	rotate                    bool
	hasEvents                 bool
	// keptKey is the verifier key of the kept head (the file's, else the
	// history's newest checkpoint's); "" when neither exists.
	keptKey string
}

// chooseLogKey reads the log key, or makes one on a first start (an empty
// log, no kept head) or a rotation the operator asked for. A key missing
// or not the kept head's is refused, coded, unless rotate.
func chooseLogKey(ctx context.Context, st keyState) (logKeys, error) {
	skey, vkey, err := LoadLogKey(st.keyPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !st.hasEvents && st.keptKey == "" {
			skey, vkey, err = CreateLogKey(st.keyPath, st.origin)
			return logKeys{skey: skey, vkey: vkey}, err
		}
		if !st.rotate {
			return logKeys{}, ledger.ReasonLogKeyMissing.New("path", st.keyPath, "head", st.headPath)
		}
		skey, vkey, err = CreateLogKey(st.keyPath, st.origin)
		if err != nil {
			return logKeys{}, err
		}
		k := logKeys{skey: skey, vkey: vkey, rotation: &ledger.LogKeyRotatedPayload{OldKey: st.keptKey, NewKey: vkey, Why: "missing"}}
		// a planned rotation: the old key moved aside co-signs
		if oskey, ovkey, err := LoadLogKey(oldKeyPath(st.keyPath)); err == nil && ovkey == st.keptKey && st.keptKey != "" {
			if k.old, err = note.NewSigner(oskey); err == nil {
				k.rotation.OldKeySigns, k.rotation.Why = true, "planned"
			}
		}
		return k, nil
	case err != nil:
		return logKeys{}, err
	}
	if st.keptKey == "" || st.keptKey == vkey {
		return logKeys{skey: skey, vkey: vkey}, nil
	}
	if !st.rotate {
		return logKeys{}, ledger.ReasonLogKeyChanged.New("path", st.keyPath, "head", st.headPath,
			"kept", keyLabel(st.keptKey), "file", keyLabel(vkey))
	}
	return logKeys{skey: skey, vkey: vkey, rotation: &ledger.LogKeyRotatedPayload{OldKey: st.keptKey, NewKey: vkey, Why: "changed"}}, nil
}

// keyLabel names a verifier key by its name and hash (the part after the
// name), as note's signatures do.
func keyLabel(vkey string) string {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return "an unreadable key"
	}
	return fmt.Sprintf("%s+%08x", v.Name(), v.KeyHash())
}

// KeepHead keeps checkpoint note, signed by the key in keyPath, as the
// head beside that key: after a point-in-time restore, verified against
// that checkpoint, the witness starts from it (the head kept before is
// ahead of the restored log, which is then rightly shorter).
func KeepHead(keyPath string, note []byte) error {
	_, vkey, err := LoadLogKey(keyPath)
	if err != nil {
		return err
	}
	c, err := ledger.OpenSignedCheckpoint(note, vkey)
	if err != nil {
		return fmt.Errorf("the checkpoint is not signed by the log key %s: %w", keyPath, err)
	}
	return writeKeptHead(LogHeadPath("", keyPath), vkey, ledger.SignedHead{Checkpoint: c, Note: note})
}
