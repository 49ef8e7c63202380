package certs

import (
	"context"
	"log/slog"

	"github.com/dankyu/dankyu/ledger"
)

// WarnOverdue runs the sweeper's warning about notices held open too long.
func (s *Service) WarnOverdue(ctx context.Context, log *slog.Logger) error {
	return s.warnOverdue(ctx, log)
}

// VerifyReadBothWays reads number's verification statement with its rows
// read raw and scanned by pgx: the certificates, birth dates and events
// of each, and whether every row read raw (no fallback).
func (s *Service) VerifyReadBothWays(ctx context.Context, number string) (raw, scanned []any, allRaw bool, err error) {
	read := func(r bool) ([]any, error) {
		cs, trees, err := readCheckedTreeRaw(ctx, s.db, byNumber, number, r)
		if err != nil {
			return nil, err
		}
		var out []any
		for k, c := range cs {
			out = append(out, c.Certificate, c.holderBirth, c.events, trees[k].Events())
		}
		return out, nil
	}
	if raw, err = read(true); err != nil {
		return nil, nil, false, err
	}
	if scanned, err = read(false); err != nil {
		return nil, nil, false, err
	}
	rows, err := s.db.Query(ctx, checkedTreeSQL[byNumber], number)
	if err != nil {
		return nil, nil, false, err
	}
	defer rows.Close()
	allRaw = true
	for rows.Next() {
		if _, _, ok := rawCheckedRow(rows, ledger.NewTreeRead("certificate")); !ok {
			allRaw = false
		}
	}
	return raw, scanned, allRaw, rows.Err()
}
