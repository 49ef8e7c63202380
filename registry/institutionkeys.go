package registry

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
)

// Keys of institutions: a university's admissions office or a sports bureau
// verifies certificates with a key of its own (X-Api-Key) against a quota
// of its own instead of the small per-address budget of the public. Staff
// issue and revoke them (logged events); every use is counted per key and
// window in PostgreSQL, so several servers spend one quota.

// institutionKeyPrefix starts every institution key, so a key pasted
// where a bearer token belongs (or the reverse) is told apart at once.
const institutionKeyPrefix = "dkk_"

// MaxInstitutionKeyQuota bounds a key's quota per window: far above an
// application season's needs, low enough that a key is still a limit.
const MaxInstitutionKeyQuota = 1_000_000

// The refusals of institution keys.
var (
	ReasonUnknownInstitutionKey = ledger.NewReason(ledger.Unauthenticated, "UNKNOWN_INSTITUTION_KEY",
		"机构密钥无效，请核对或向协会申请（机构密钥以 {prefix} 开头）。",
		"unknown institution key; check it or ask the association for one (they start with {prefix}).")
	ReasonRevokedInstitutionKey = ledger.NewReason(ledger.PermissionDenied, "REVOKED_INSTITUTION_KEY",
		"该机构密钥已于 {date} 被吊销，请向协会申请新密钥。", "this institution key was revoked on {date}; ask the association for a new one.")
	ReasonInstitutionKeyQuota = ledger.NewReason(ledger.Exhausted, "INSTITUTION_KEY_QUOTA",
		"本机构密钥的核验额度（{limit}）已用 {used} 次，本次请求计 {count} 次；额度于 {reset} 恢复。",
		"this institution key's verification quota ({limit}) has {used} used and this request counts {count}; it renews at {reset}.")
	ReasonInstitutionKeyPer = ledger.NewReason(ledger.Invalid, "INSTITUTION_KEY_PER",
		"额度周期只能是每小时（hour）或每天（day）。", "the quota is per hour or per day.")
	ReasonInstitutionKeyQuotaRange = ledger.NewReason(ledger.Invalid, "INSTITUTION_KEY_QUOTA_RANGE",
		"额度须在 1 到 {max} 之间。", "the quota must be from 1 to {max}.")
	ReasonNoSuchInstitutionKey = ledger.NewReason(ledger.NotFound, "NO_SUCH_INSTITUTION_KEY",
		"没有编号为 {key} 的机构密钥。", "there is no institution key {key}.")
	ReasonInstitutionKeyAlreadyRevoked = ledger.NewReason(ledger.Precondition, "INSTITUTION_KEY_ALREADY_REVOKED",
		"编号为 {key} 的机构密钥已于 {date} 吊销，无需再次吊销。", "institution key {key} was already revoked on {date}.")
)

// InstitutionKey is a key's record; the key itself is shown once, at issue.
type InstitutionKey struct {
	ID           int64
	Shown        string // the key's first characters, to tell keys apart
	Institution  string
	Kind         string // e.g. "university", "sports bureau"; free text
	Quota        int
	Per          string // "hour" or "day"
	IssuedAt     time.Time
	IssuedBy     string
	RevokedAt    *time.Time
	RevokeReason string
}

// InstitutionKeyInput is what staff give to issue a key.
type InstitutionKeyInput struct {
	Institution string
	Kind        string
	Quota       int
	Per         string
}

// KeyUsage is one window's count of a key's use.
type KeyUsage struct {
	WindowStart time.Time
	Used        int // numbers verified
	Refused     int // calls turned away over the quota
}

// IssueInstitutionKey makes a key for a named institution with its quota
// and returns it (shown this once, stored only as its SHA-256) with its
// record. Staff only; logged as institution_key.issued. No idempotency
// key: a retried answer would have to keep the key itself.
func (s *Service) IssueInstitutionKey(ctx context.Context, actor ledger.Actor, in InstitutionKeyInput) (string, InstitutionKey, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageTokens, AssociationPrefix); err != nil {
		return "", InstitutionKey{}, err
	}
	name, err := ledger.Text("institution", in.Institution, 200)
	if err != nil {
		return "", InstitutionKey{}, err
	}
	kind, err := ledger.OptionalText("kind", in.Kind, 64)
	if err != nil {
		return "", InstitutionKey{}, err
	}
	per := strings.ToLower(strings.TrimSpace(in.Per))
	if per != "hour" && per != "day" {
		return "", InstitutionKey{}, ReasonInstitutionKeyPer.OnField("per")
	}
	if in.Quota < 1 || in.Quota > MaxInstitutionKeyQuota {
		return "", InstitutionKey{}, ReasonInstitutionKeyQuotaRange.OnField("quota", "max", strconv.Itoa(MaxInstitutionKeyQuota))
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", InstitutionKey{}, fmt.Errorf("issue institution key: %w", err)
	}
	key := institutionKeyPrefix + base64.RawURLEncoding.EncodeToString(raw)
	k := InstitutionKey{Shown: key[:len(institutionKeyPrefix)+6], Institution: name, Kind: kind, Quota: in.Quota, Per: per, IssuedBy: actor.String()}
	k, err = ledger.Mutate(ctx, s.store, actor, "", "IssueInstitutionKey", nil, func(tx *ledger.Tx, now time.Time) (InstitutionKey, error) {
		k.IssuedAt = now
		err := tx.QueryRow(ctx, `INSERT INTO institution_keys (hash, shown, institution, kind, quota, per, issued_at, issued_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, hashToken(key), k.Shown, k.Institution, k.Kind, k.Quota, k.Per, now, k.IssuedBy).Scan(&k.ID)
		if err != nil {
			return InstitutionKey{}, ledger.PgErr(err, "issue institution key")
		}
		err = ledger.Append(ctx, tx, now, actor, "institution_key", strconv.FormatInt(k.ID, 10),
			InstitutionKeyIssuedPayload{Institution: k.Institution, Kind: k.Kind, Quota: k.Quota, Per: k.Per, Shown: k.Shown})
		return k, err
	})
	if err != nil {
		return "", InstitutionKey{}, err
	}
	return key, k, nil
}

// RevokeInstitutionKey makes a key unusable from now on, with the reason.
// Staff only; logged as institution_key.revoked.
func (s *Service) RevokeInstitutionKey(ctx context.Context, actor ledger.Actor, idemKey string, id int64, reason string) (InstitutionKey, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageTokens, AssociationPrefix); err != nil {
		return InstitutionKey{}, err
	}
	why, err := ledger.Text("reason", reason, 500)
	if err != nil {
		return InstitutionKey{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, idemKey, "RevokeInstitutionKey", []any{id, why}, func(tx *ledger.Tx, now time.Time) (InstitutionKey, error) {
		tag, err := tx.Exec(ctx, `UPDATE institution_keys SET revoked_at = $2, revoke_reason = $3 WHERE id = $1 AND revoked_at IS NULL`, id, now, why)
		if err != nil {
			return InstitutionKey{}, ledger.PgErr(err, "revoke institution key")
		}
		if tag.RowsAffected() == 0 {
			// none such, or revoked before: the refusal says which
			var revoked *time.Time
			err := tx.QueryRow(ctx, `SELECT revoked_at FROM institution_keys WHERE id = $1`, id).Scan(&revoked)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
				return InstitutionKey{}, ReasonNoSuchInstitutionKey.OnField("id", "key", strconv.FormatInt(id, 10))
			case err != nil:
				return InstitutionKey{}, ledger.PgErr(err, "revoke institution key")
			case revoked != nil:
				return InstitutionKey{}, ReasonInstitutionKeyAlreadyRevoked.New("key", strconv.FormatInt(id, 10),
					"date", revoked.In(ledger.ChinaTime).Format(time.DateOnly))
			}
			return InstitutionKey{}, ReasonNoSuchInstitutionKey.OnField("id", "key", strconv.FormatInt(id, 10))
		}
		if err := ledger.Append(ctx, tx, now, actor, "institution_key", strconv.FormatInt(id, 10), InstitutionKeyRevokedPayload{Reason: why}); err != nil {
			return InstitutionKey{}, err
		}
		return scanInstitutionKey(tx.QueryRow(ctx, `SELECT `+institutionKeyColumns+` FROM institution_keys WHERE id = $1`, id))
	})
}

const institutionKeyColumns = `id, shown, institution, kind, quota, per, issued_at, issued_by, revoked_at, revoke_reason`

func scanInstitutionKey(r pgx.Row) (InstitutionKey, error) {
	var k InstitutionKey
	err := r.Scan(&k.ID, &k.Shown, &k.Institution, &k.Kind, &k.Quota, &k.Per, &k.IssuedAt, &k.IssuedBy, &k.RevokedAt, &k.RevokeReason)
	return k, err
}

// ListInstitutionKeys returns every key's record, newest first. Staff only.
func (s *Service) ListInstitutionKeys(ctx context.Context, actor ledger.Actor) ([]InstitutionKey, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageTokens, AssociationPrefix); err != nil {
		return nil, err
	}
	rows, err := s.store.DB().Query(ctx, `SELECT `+institutionKeyColumns+` FROM institution_keys ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("list institution keys: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (InstitutionKey, error) { return scanInstitutionKey(r) })
}

// InstitutionKeyUsage returns a key's record and its use in its latest
// windows, newest first (at most limit, up to 1000). Staff only.
func (s *Service) InstitutionKeyUsage(ctx context.Context, actor ledger.Actor, id int64, limit int) (InstitutionKey, []KeyUsage, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageTokens, AssociationPrefix); err != nil {
		return InstitutionKey{}, nil, err
	}
	k, err := scanInstitutionKey(s.store.DB().QueryRow(ctx, `SELECT `+institutionKeyColumns+` FROM institution_keys WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return InstitutionKey{}, nil, ReasonNoSuchInstitutionKey.OnField("id", "key", strconv.FormatInt(id, 10))
	}
	if err != nil {
		return InstitutionKey{}, nil, fmt.Errorf("institution key usage: %w", err)
	}
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	rows, err := s.store.DB().Query(ctx, `SELECT window_start, used, refused FROM institution_key_usage
		WHERE key_id = $1 ORDER BY window_start DESC LIMIT $2`, id, limit)
	if err != nil {
		return InstitutionKey{}, nil, fmt.Errorf("institution key usage: %w", err)
	}
	use, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeyUsage, error) {
		var u KeyUsage
		err := r.Scan(&u.WindowStart, &u.Used, &u.Refused)
		return u, err
	})
	return k, use, err
}

// IsInstitutionKey reports whether s looks like an institution key (by
// its prefix), so a caller can tell one from a bearer token without a
// lookup.
func IsInstitutionKey(s string) bool { return strings.HasPrefix(s, institutionKeyPrefix) }

// SpendInstitutionKey charges n verifications to a key's quota in its
// current window and returns the key's id: UNKNOWN_INSTITUTION_KEY for a
// key never issued, REVOKED_INSTITUTION_KEY for a revoked one, and
// INSTITUTION_KEY_QUOTA when the window has fewer than n left (nothing is
// charged then; the refusal is counted). One conditional upsert, so
// servers sharing the database cannot together pass the quota.
func (s *Service) SpendInstitutionKey(ctx context.Context, key string, n int) (int64, error) {
	n = max(n, 1)
	if !IsInstitutionKey(key) {
		return 0, ReasonUnknownInstitutionKey.New("prefix", institutionKeyPrefix)
	}
	var (
		id      int64
		quota   int
		per     string
		revoked *time.Time
	)
	err := s.store.DB().QueryRow(ctx, `SELECT id, quota, per, revoked_at FROM institution_keys WHERE hash = $1`, hashToken(key)).
		Scan(&id, &quota, &per, &revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, ReasonUnknownInstitutionKey.New("prefix", institutionKeyPrefix)
	}
	if err != nil {
		return 0, fmt.Errorf("institution key: %w", err)
	}
	if revoked != nil {
		return id, ReasonRevokedInstitutionKey.New("date", revoked.In(ledger.ChinaTime).Format(time.DateOnly))
	}
	start, next := quotaWindow(s.store.Now(), per)
	var used int
	err = s.store.DB().QueryRow(ctx, `INSERT INTO institution_key_usage AS u (key_id, window_start, used)
		SELECT $1::bigint, $2::timestamptz, $3::integer WHERE $3::integer <= $4::integer
		ON CONFLICT (key_id, window_start) DO UPDATE SET used = u.used + excluded.used WHERE u.used + excluded.used <= $4
		RETURNING used`, id, start, n, quota).Scan(&used)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return id, fmt.Errorf("institution key use: %w", err)
	}
	err = s.store.DB().QueryRow(ctx, `INSERT INTO institution_key_usage AS u (key_id, window_start, refused) VALUES ($1, $2, 1)
		ON CONFLICT (key_id, window_start) DO UPDATE SET refused = u.refused + 1 RETURNING used`, id, start).Scan(&used)
	if err != nil {
		return id, fmt.Errorf("institution key refusal: %w", err)
	}
	zh, en := quotaWords(quota, per)
	return id, ReasonInstitutionKeyQuota.With(ledger.Words("limit", zh, en), ledger.Value("used", strconv.Itoa(used)),
		ledger.Value("count", strconv.Itoa(n)), ledger.Value("reset", next.In(ledger.ChinaTime).Format("2006-01-02 15:04")))
}

// quotaWindow is the window holding now: the hour, or the day in Beijing
// (an office's working day), and when the next begins.
func quotaWindow(now time.Time, per string) (start, next time.Time) {
	if per == "hour" {
		start = now.Truncate(time.Hour)
		return start, start.Add(time.Hour)
	}
	b := now.In(ledger.ChinaTime)
	start = time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, ledger.ChinaTime)
	return start, start.AddDate(0, 0, 1)
}

func quotaWords(quota int, per string) (zh, en string) {
	n := strconv.Itoa(quota)
	if per == "hour" {
		return "每小时 " + n + " 次", n + " per hour"
	}
	return "每天 " + n + " 次", n + " per day"
}
