package certs_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

// serialWindow is one series the benchmark issues from: its agency and
// the serial it is filled to before the first round.
type serialWindow struct {
	name   string
	prefix string
	filled int
}

// BenchmarkIssuanceBySerial measures issuance (approving 1-dan
// applications, 32 clients, all on one series so that they queue on its
// row lock) at three places of a series: fresh (serial 1 on), filled to
// 5 000 (serials 5 001 on) and filled to 8 000 (8 001 on), the fill a
// bulk INSERT of certificates and the series' counters. In the same run,
// on the same database, the baseline is the essential transaction written
// directly in pgx from 32 goroutines, as pgbench would run it: lock the
// series row, UPDATE … RETURNING its serial, INSERT the certificate,
// INSERT the event, commit. Rounds (5) interleave the four, their order
// rotating; each round issues DANKYU_ISSUE_WINDOW certificates (150 by
// default) per series. Goals: each series ≤ 2× the baseline, and the
// filled series ≤ 1.1× the fresh one (issuance does not slow as a series
// fills). Run with -benchtime 1x.
func BenchmarkIssuanceBySerial(b *testing.B) {
	ctx := context.Background()
	const rounds = 5
	per := 150
	if v := os.Getenv("DANKYU_ISSUE_WINDOW"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || n > 190 {
			b.Fatalf("DANKYU_ISSUE_WINDOW=%q: want 1…190 certificates per round (5 rounds below serial 9 000)", v)
		}
		per = n
	}
	e := newEnv(b, certs.Config{})
	windows := []serialWindow{{"fresh", "110", 0}, {"from5001", "310", 5000}, {"from8001", "440", 8000}}
	seq := 0
	// each window's applications, round by round; one more each to issue
	// the series' first certificate (the fill's template)
	apps := make([][]int64, len(windows))
	actors := make([]ledger.Actor, len(windows))
	for w, win := range windows {
		fixture.Stock(b, e.cs, win.prefix, e.year(), certs.MaxDanSerial, 0)
		actors[w] = fixture.Agency(win.prefix)
		players := make([]int64, rounds*per+1)
		for i := range players {
			seq++
			players[i] = fixture.Player(b, e.reg, win.prefix, fmt.Sprintf("s%d", seq), "", "1990-01-01", seq).ID
		}
		ev := fixture.Earned(b, e.ts, "1d", players...)
		for _, p := range players {
			a, err := e.cs.Apply(ctx, actors[w], "", certs.ApplicationInput{PlayerID: p, TargetRank: "1d", Basis: "tournament", EventID: ev})
			if err != nil {
				b.Fatal(err)
			}
			apps[w] = append(apps[w], a.ID)
		}
		first, err := e.cs.Approve(ctx, actors[w], "", apps[w][0])
		if err != nil {
			b.Fatal(err)
		}
		apps[w] = apps[w][1:]
		if win.filled > 1 {
			var cert int64
			if err := e.pool.QueryRow(ctx, `SELECT id FROM certificates WHERE application_id = $1`, first.ID).Scan(&cert); err != nil {
				b.Fatalf("the first certificate of %s: %v", win.prefix, err)
			}
			fillSeries(b, e, cert, win.filled)
		}
	}
	if _, err := e.pool.Exec(ctx, `CREATE TABLE bench_series (id int PRIMARY KEY, last_serial int NOT NULL, used int NOT NULL);
		INSERT INTO bench_series VALUES (1, 0, 0);
		CREATE TABLE bench_certificates (id bigserial PRIMARY KEY, number text UNIQUE NOT NULL, serial int NOT NULL, player_id bigint NOT NULL,
			holder_name text NOT NULL, rank smallint NOT NULL, issued_at timestamptz NOT NULL);
		CREATE TABLE bench_events (id bigserial PRIMARY KEY, at timestamptz NOT NULL, actor text NOT NULL, action text NOT NULL,
			entity_id text NOT NULL, payload jsonb NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	// the essential transaction: lock the series row, take its next
	// serial, then write (the certificate and its event) and commit
	essentialWith := func(write func(tx pgx.Tx, i, serial int) error) func(int) error {
		return func(i int) error {
			return pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
				var serial int
				if _, err := tx.Exec(ctx, `SELECT 1 FROM bench_series WHERE id = 1 FOR UPDATE`); err != nil {
					return err
				}
				if err := tx.QueryRow(ctx, `UPDATE bench_series SET last_serial = last_serial + 1, used = used + 1 WHERE id = 1 RETURNING last_serial`).Scan(&serial); err != nil {
					return err
				}
				return write(tx, i, serial)
			})
		}
	}
	essential := essentialWith(func(tx pgx.Tx, i, serial int) error {
		number := fmt.Sprintf("B%08d", serial)
		if _, err := tx.Exec(ctx, `INSERT INTO bench_certificates (number, serial, player_id, holder_name, rank, issued_at) VALUES ($1, $2, $3, $4, 1, $5)`,
			number, serial, i, "bench", e.clock.Now()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO bench_events (at, actor, action, entity_id, payload) VALUES ($3, 'agency:110', 'certificate.issued', $1, $2)`,
			number, fmt.Sprintf(`{"serial": %d}`, serial), e.clock.Now())
		return err
	})
	// the same transaction on tables shaped like the registry's own
	// (columns, defaults, checks and every index of certificates and
	// events, LIKE … INCLUDING ALL): the rows an issuance must write, with
	// the indexes the registry keeps on them
	if _, err := e.pool.Exec(ctx, `CREATE TABLE bench_certificates_shaped (LIKE certificates INCLUDING ALL);
		CREATE TABLE bench_events_shaped (LIKE events INCLUDING ALL)`); err != nil {
		b.Fatal(err)
	}
	prev := make([]byte, sha256.Size)
	shaped := essentialWith(func(tx pgx.Tx, i, serial int) error {
		number := fmt.Sprintf("9%08d", serial)
		now := e.clock.Now()
		if _, err := tx.Exec(ctx, `INSERT INTO bench_certificates_shaped (number, kind, issuing_prefix, year, serial, player_id, rank, previous_rank, basis,
				issued_at, granted_at, issue_date, athlete_grade, status, holder_name, issuing_body)
			VALUES ($1, 'dan', '990', 26, $2, $3, 1, 0, 'tournament', $4, $4, $5, '', 'valid', 'bench', 'bench')`,
			number, serial, i, now, now.Format(time.DateOnly)); err != nil {
			return err
		}
		payload := fmt.Sprintf(`{"number": %q, "serial": %d}`, number, serial)
		hash := sha256.Sum256([]byte(payload))
		_, err := tx.Exec(ctx, `INSERT INTO bench_events_shaped (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash)
			VALUES ($1, $2, 'agency:990', 'certificate.issued', 'certificate', $3, $4, $5, $6)`,
			serial, now, number, payload, prev, hash[:])
		return err
	})
	essentials := []func(int) error{essential, shaped}
	for b.Loop() {
		// per op (the windows, then the two essential transactions), per
		// round: per second
		rates := make([][]float64, len(windows)+len(essentials))
		for r := range rounds {
			for k := range len(rates) {
				w := (k + r) % len(rates)
				if w >= len(windows) {
					rates[w] = append(rates[w], runClients(b, per, essentials[w-len(windows)]))
					continue
				}
				batch := apps[w][r*per : (r+1)*per]
				rates[w] = append(rates[w], runClients(b, per, func(i int) error {
					_, err := e.cs.Approve(ctx, actors[w], fmt.Sprintf("serial-%d-%d", w, batch[i]), batch[i])
					return err
				}))
			}
		}
		base, shapedBase := rates[len(windows)], rates[len(windows)+1]
		for w, win := range windows {
			vsBase := make([]float64, rounds)
			vsShaped := make([]float64, rounds)
			vsFresh := make([]float64, rounds)
			for r := range rounds {
				vsBase[r] = base[r] / rates[w][r]
				vsShaped[r] = shapedBase[r] / rates[w][r]
				vsFresh[r] = rates[0][r] / rates[w][r]
			}
			b.Logf("%-8s serials %d–%d: %s issues/s; vs the essential transaction (%s/s) %s, on registry-shaped tables (%s/s) %s (goal ≤ 2×); vs fresh %s (goal ≤ 1.1×)",
				win.name, win.filled+2, win.filled+1+rounds*per, spreadF(rates[w], "%.0f"), spreadF(base, "%.0f"), spreadF(vsBase, "%.2f×"),
				spreadF(shapedBase, "%.0f"), spreadF(vsShaped, "%.2f×"), spreadF(vsFresh, "%.2f×"))
			b.ReportMetric(slices.Max(vsBase), win.name+"-vs-essential-max")
			b.ReportMetric(slices.Max(vsShaped), win.name+"-vs-shaped-max")
		}
	}
}

// fillSeries bulk-inserts certificates of the series of the certificate
// id (copies of it, for its holder) up to serial filled, and sets the
// series' counters as issuing them would have: what a year's issuing
// leaves, without issuing it.
func fillSeries(b *testing.B, e *env, id int64, filled int) {
	b.Helper()
	ctx := context.Background()
	tag, err := e.pool.Exec(ctx, `INSERT INTO certificates (number, kind, issuing_prefix, year, serial, player_id, rank, previous_rank, basis,
			issued_at, granted_at, issue_date, athlete_grade, status, holder_name, issuing_body)
		SELECT c.issuing_prefix || lpad(c.year::text, 2, '0') || lpad(g::text, 4, '0'), c.kind, c.issuing_prefix, c.year, g, c.player_id,
			c.rank, c.previous_rank, c.basis, c.issued_at, c.granted_at, c.issue_date, c.athlete_grade, 'revoked', c.holder_name, c.issuing_body
		FROM certificates c, generate_series(c.serial + 1, $2::int) g WHERE c.id = $1`, id, filled)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `UPDATE certificate_series s SET last_serial = $2, used = $2 FROM certificates c
		WHERE c.id = $1 AND s.prefix = c.issuing_prefix AND s.year = c.year AND s.kind = c.kind`, id, filled); err != nil {
		b.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `ANALYZE certificates`); err != nil {
		b.Fatal(err)
	}
	b.Logf("filled series of certificate %d to serial %d (%d rows)", id, filled, tag.RowsAffected())
}

// spreadF is min / median / max of xs, each in format f.
func spreadF(xs []float64, f string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return fmt.Sprintf(f+" / "+f+" / "+f, s[0], s[len(s)/2], s[len(s)-1])
}
