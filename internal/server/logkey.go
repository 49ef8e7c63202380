package server

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

// LogKeyName is the name in the event log's note keys.
const LogKeyName = "dankyu-events"

// LoadLogKey reads the event log's signing key file (the note signer key on
// its first line, the verifier key on its second), creating it with mode
// 0600 on first start. The key is kept outside the database so that
// whoever can rewrite the database cannot sign a rewritten log.
func LoadLogKey(path string) (skey, vkey string, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		skey, vkey, err = note.GenerateKey(rand.Reader, LogKeyName)
		if err != nil {
			return "", "", fmt.Errorf("generate log key: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", "", fmt.Errorf("log key folder: %w", err)
		}
		// O_EXCL: a key another process created first is read, not replaced
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
		if err := f.Close(); err != nil {
			return "", "", fmt.Errorf("write log key: %w", err)
		}
		return skey, vkey, nil
	}
	if err != nil {
		return "", "", fmt.Errorf("read log key: %w", err)
	}
	lines := strings.Fields(string(b))
	if len(lines) != 2 {
		return "", "", fmt.Errorf("log key %s: want the signer key and the verifier key on two lines", path)
	}
	return lines[0], lines[1], nil
}

// LogKeyPath is where the log key is: the setting, or log.key in the data
// folder (beside the cluster's own folders, also with an outside database).
func LogKeyPath(setting, dataDir string) string {
	if setting != "" {
		return setting
	}
	return filepath.Join(dataDir, "log.key")
}
