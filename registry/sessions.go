package registry

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/jackc/pgx/v5"
)

// sessionBytes is the entropy of a session id (crypto/rand).
const sessionBytes = 32

func hashSession(id string) []byte {
	sum := sha256.Sum256([]byte("session:" + id))
	return sum[:]
}

// StartSession signs a browser in with an API token: it returns a fresh
// random session id that stands for the token until ttl has passed on the
// store's clock or EndSession is called. Only the id's hash is stored, so
// the table cannot be replayed as cookies; expired sessions are deleted here.
func (s *Service) StartSession(ctx context.Context, tok string, ttl time.Duration) (string, ledger.Actor, error) {
	a, err := s.Authenticate(ctx, tok)
	if err != nil {
		return "", ledger.Actor{}, err
	}
	raw := make([]byte, sessionBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", ledger.Actor{}, fmt.Errorf("start session: %w", err)
	}
	id := base64.RawURLEncoding.EncodeToString(raw)
	now := s.store.Now()
	if _, err := s.store.DB().Exec(ctx, `DELETE FROM portal_sessions WHERE expires_at <= $1`, now); err != nil {
		return "", ledger.Actor{}, fmt.Errorf("start session: delete expired: %w", err)
	}
	if _, err := s.store.DB().Exec(ctx, `INSERT INTO portal_sessions (id_hash, token_id, created_at, expires_at)
		VALUES ($1, $2, $3, $4)`, hashSession(id), a.TokenID, now, now.Add(ttl)); err != nil {
		return "", ledger.Actor{}, fmt.Errorf("start session: %w", err)
	}
	return id, a, nil
}

// SessionActor is the actor a live session stands for; an unknown,
// expired or ended session, or one whose token was revoked since, is
// refused like an unknown token.
func (s *Service) SessionActor(ctx context.Context, id string) (ledger.Actor, error) {
	var (
		tokID         int64
		kind          string
		agency, staff *string
		revoked       *time.Time
	)
	err := s.store.DB().QueryRow(ctx, `SELECT t.id, t.kind, t.agency_prefix, t.staff_name, t.revoked_at
		FROM portal_sessions s JOIN api_tokens t ON t.id = s.token_id
		WHERE s.id_hash = $1 AND s.expires_at > $2`, hashSession(id), s.store.Now()).Scan(&tokID, &kind, &agency, &staff, &revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Actor{}, ReasonUnknownToken.New()
	}
	if err != nil {
		return ledger.Actor{}, fmt.Errorf("session: %w", err)
	}
	return tokenActor(tokID, kind, agency, staff, revoked)
}

// EndSession deletes a session (logout): its cookie is dead at once.
func (s *Service) EndSession(ctx context.Context, id string) error {
	if _, err := s.store.DB().Exec(ctx, `DELETE FROM portal_sessions WHERE id_hash = $1`, hashSession(id)); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}
