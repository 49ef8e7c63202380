package registry

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/jackc/pgx/v5"
)

// TokenInfo describes an API token; the token itself is shown once and
// never stored, only its SHA-256.
type TokenInfo struct {
	ID        int64
	Kind      ledger.ActorKind
	Agency    string
	StaffName string
	CreatedAt time.Time
	RevokedAt *time.Time
}

const tokenPrefix = "dk_"

func hashToken(tok string) []byte {
	sum := sha256.Sum256([]byte(tok))
	return sum[:]
}

// CreateToken makes a bearer token for an agency (by prefix) or a staff member
// and returns it with its record. Only staff and the system may create tokens.
func (s *Service) CreateToken(ctx context.Context, actor ledger.Actor, kind ledger.ActorKind, agencyPrefix, staffName string) (string, TokenInfo, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageTokens, AssociationPrefix); err != nil {
		return "", TokenInfo{}, err
	}
	info := TokenInfo{Kind: kind}
	var kindName string
	switch kind {
	case ledger.AgencyActor:
		kindName, info.Agency = "agency", strings.TrimSpace(agencyPrefix)
		if _, err := s.GetAgency(ctx, info.Agency); err != nil {
			if ledger.KindOf(err) == ledger.NotFound {
				return "", TokenInfo{}, ReasonNoSuchAgency.OnField("agency", "agency", info.Agency)
			}
			return "", TokenInfo{}, fmt.Errorf("create token for agency %q: %w", info.Agency, err)
		}
	case ledger.StaffActor:
		name, err := ledger.Text("staff", staffName, MaxNameLen)
		kindName, info.StaffName = "staff", name
		if err != nil || strings.ContainsAny(info.StaffName, " \t\n:") {
			return "", TokenInfo{}, ReasonStaffName.OnField("staff")
		}
	default:
		return "", TokenInfo{}, ReasonTokenKind.OnField("kind")
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", TokenInfo{}, fmt.Errorf("create token: %w", err)
	}
	tok := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	var agency, staff *string
	if kind == ledger.AgencyActor {
		agency = &info.Agency
	} else {
		staff = &info.StaffName
	}
	info, err := ledger.Mutate(ctx, s.store, actor, "", "CreateToken", nil, func(tx *ledger.Tx, now time.Time) (TokenInfo, error) {
		info.CreatedAt = now
		err := tx.QueryRow(ctx, `INSERT INTO api_tokens (hash, kind, agency_prefix, staff_name, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, hashToken(tok), kindName, agency, staff, now).Scan(&info.ID)
		if err != nil {
			return TokenInfo{}, ledger.PgErr(err, "create token")
		}
		err = ledger.Append(ctx, tx, now, actor, "token", strconv.FormatInt(info.ID, 10),
			TokenCreatedPayload{Agency: info.Agency, Kind: kindName, Staff: info.StaffName})
		return info, err
	})
	if err != nil {
		return "", TokenInfo{}, err
	}
	return tok, info, nil
}

// RevokeToken makes a token unusable from now on.
func (s *Service) RevokeToken(ctx context.Context, actor ledger.Actor, id int64) error {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageTokens, AssociationPrefix); err != nil {
		return err
	}
	_, err := ledger.Mutate(ctx, s.store, actor, "", "RevokeToken", nil, func(tx *ledger.Tx, now time.Time) (bool, error) {
		tag, err := tx.Exec(ctx, `UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, id, now)
		if err != nil {
			return false, ledger.PgErr(err, "revoke token")
		}
		if tag.RowsAffected() == 0 {
			return false, ReasonNoSuchToken.New("token", strconv.FormatInt(id, 10))
		}
		err = ledger.Append(ctx, tx, now, actor, "token", strconv.FormatInt(id, 10), TokenRevokedPayload{})
		return true, err
	})
	return err
}

// ListTokens returns every token's record, newest first.
func (s *Service) ListTokens(ctx context.Context) ([]TokenInfo, error) {
	rows, err := s.store.DB().Query(ctx, `SELECT id, kind, coalesce(agency_prefix, ''), coalesce(staff_name, ''), created_at, revoked_at
		FROM api_tokens ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (TokenInfo, error) {
		var t TokenInfo
		var kind string
		err := r.Scan(&t.ID, &kind, &t.Agency, &t.StaffName, &t.CreatedAt, &t.RevokedAt)
		t.Kind = ledger.StaffActor
		if kind == "agency" {
			t.Kind = ledger.AgencyActor
		}
		return t, err
	})
}

// Authenticate finds the actor a bearer token stands for.
func (s *Service) Authenticate(ctx context.Context, tok string) (ledger.Actor, error) {
	if !strings.HasPrefix(tok, tokenPrefix) {
		return ledger.Actor{}, ReasonNotAToken.New("prefix", tokenPrefix)
	}
	var (
		id            int64
		kind          string
		agency, staff *string
		revoked       *time.Time
	)
	err := s.store.DB().QueryRow(ctx, `SELECT id, kind, agency_prefix, staff_name, revoked_at FROM api_tokens WHERE hash = $1`,
		hashToken(tok)).Scan(&id, &kind, &agency, &staff, &revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return ledger.Actor{}, ReasonUnknownToken.New()
	}
	if err != nil {
		return ledger.Actor{}, fmt.Errorf("authenticate: %w", err)
	}
	return tokenActor(id, kind, agency, staff, revoked)
}

// tokenActor turns a token row into the actor it stands for; a session
// and a bearer token end in the same place, so they refuse alike.
func tokenActor(id int64, kind string, agency, staff *string, revoked *time.Time) (ledger.Actor, error) {
	if revoked != nil {
		return ledger.Actor{}, ReasonRevokedToken.New()
	}
	if kind == "agency" {
		return ledger.Actor{Kind: ledger.AgencyActor, Agency: *agency, TokenID: id}, nil
	}
	return ledger.Actor{Kind: ledger.StaffActor, Name: *staff, TokenID: id}, nil
}
