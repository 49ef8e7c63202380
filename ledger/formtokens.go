package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// FormTokenUse is what is known of a form token when a post claims it.
type FormTokenUse struct {
	// First says this post is the token's first use: it may go on.
	First bool
	// Idem and Outcome are the first use's idempotency key and where it
	// led ("" while it is still running), when this post is not the first.
	Idem, Outcome string
}

// expiredPerClaim bounds the expired rows one claim deletes: the table
// stays about as large as the tokens used within the form expiry, and no
// claim pays for a backlog.
const expiredPerClaim = 64

// ClaimFormToken records the first use of a form token (hash is its
// SHA-256) by a post with idempotency key idem, until expires (when the
// token is refused anyway); a token already claimed answers its first use.
// Shared by every server process, so a replay is refused on any of them.
func (s *Store) ClaimFormToken(ctx context.Context, hash []byte, idem string, expires time.Time) (FormTokenUse, error) {
	if len(hash) != 32 {
		return FormTokenUse{}, fmt.Errorf("claim form token: a hash of %d bytes", len(hash))
	}
	now := s.Now()
	if _, err := s.db.Exec(ctx, `DELETE FROM form_token_uses WHERE hash IN
		(SELECT hash FROM form_token_uses WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)`, now, expiredPerClaim); err != nil {
		return FormTokenUse{}, fmt.Errorf("expire form tokens: %w", err)
	}
	// a claim released between the insert and the read is claimed again
	for range 3 {
		var first bool
		err := s.db.QueryRow(ctx, `INSERT INTO form_token_uses (hash, idem, expires_at) VALUES ($1, $2, $3)
			ON CONFLICT (hash) DO NOTHING RETURNING true`, hash, idem, expires).Scan(&first)
		if err == nil {
			return FormTokenUse{First: true}, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return FormTokenUse{}, fmt.Errorf("claim form token: %w", err)
		}
		var u FormTokenUse
		err = s.db.QueryRow(ctx, `SELECT idem, outcome FROM form_token_uses WHERE hash = $1`, hash).Scan(&u.Idem, &u.Outcome)
		if err == nil {
			return u, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return FormTokenUse{}, fmt.Errorf("read form token: %w", err)
		}
	}
	return FormTokenUse{}, errors.New("claim form token: claimed and released three times over")
}

// SettleFormToken records where the token's first post led; an empty
// outcome releases the claim (the post was refused and changed nothing, so
// the form may be sent again as corrected).
func (s *Store) SettleFormToken(ctx context.Context, hash []byte, outcome string) error {
	var err error
	if outcome == "" {
		_, err = s.db.Exec(ctx, `DELETE FROM form_token_uses WHERE hash = $1 AND outcome = ''`, hash)
	} else {
		_, err = s.db.Exec(ctx, `UPDATE form_token_uses SET outcome = $2 WHERE hash = $1`, hash, outcome)
	}
	if err != nil {
		return fmt.Errorf("settle form token: %w", err)
	}
	return nil
}
