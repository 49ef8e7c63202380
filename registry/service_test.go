package registry_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/jackc/pgx/v5/pgxpool"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

var (
	staff   = ledger.Actor{Kind: ledger.StaffActor, Name: "li"}
	beijing = ledger.Actor{Kind: ledger.AgencyActor, Agency: "110"}
	clock   = func() time.Time { return time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC) }
)

func newService(t *testing.T) *registry.Service {
	s, _ := newServiceDB(t)
	return s
}

// newServiceDB is newService with its database, for the tests that read or
// tamper with rows directly.
func newServiceDB(t *testing.T) (*registry.Service, *pgxpool.Pool) {
	s, store := newServiceStore(t)
	return s, store.DB()
}

// newServiceStore is newService with its store, for the tests that change
// rows inside their own transactions.
func newServiceStore(t *testing.T) (*registry.Service, *ledger.Store) {
	t.Helper()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, clock, nil)
	s := registry.New(store)
	for _, p := range []string{"110", "310"} {
		if _, err := s.CreateAgency(context.Background(), staff, "", registry.AgencyInput{Prefix: p, Name: "agency " + p}); err != nil {
			t.Fatal(err)
		}
	}
	return s, store
}

// residentID builds a valid 18-character number for a Beijing birth date.
func residentID(birth string, seq int) string {
	first := fmt.Sprintf("110105%s%03d", strings.ReplaceAll(birth, "-", ""), seq)
	sum, w := 0, 1
	for i := 16; i >= 0; i-- {
		w = w * 2 % 11
		sum += int(first[i]-'0') * w
	}
	return first + string("10X98765432"[sum%11])
}

func zhang() registry.PlayerInput {
	return registry.PlayerInput{Name: "张三", Gender: registry.Male, BirthDate: "1949-12-31",
		IDKind: registry.ResidentIDCard, IDNumber: "11010519491231002X", ProvinceCode: "11", Rank: "3d"}
}

func TestRegisterPlayerPermissions(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	p, err := s.RegisterPlayer(ctx, beijing, "", zhang())
	if err != nil {
		t.Fatalf("own province: %v", err)
	}
	if p.AgencyPrefix != "110" || p.Rank != registry.NoRank || p.DeclaredRank != 3 || p.ID == 0 {
		t.Fatalf("stored %+v", p)
	}
	shanghai := zhang()
	shanghai.ProvinceCode = "31"
	if _, err := s.RegisterPlayer(ctx, beijing, "", shanghai); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("other province: got %v, want permission denied", err)
	}
	if _, err := s.RegisterPlayer(ctx, beijing, "", zhang()); !errors.Is(err, ledger.ErrAlreadyExists) {
		t.Fatalf("same ID twice: got %v, want already exists", err)
	}
	if _, err := s.RegisterPlayer(ctx, ledger.Actor{}, "", zhang()); !errors.Is(err, ledger.ErrUnauthenticated) {
		t.Fatalf("public: got %v, want unauthenticated", err)
	}
	if _, err := s.SetAgencyStatus(ctx, staff, "", "110", registry.AgencySuspended, "audit"); err != nil {
		t.Fatal(err)
	}
	other := zhang()
	other.IDNumber, other.BirthDate = residentID("2010-01-01", 1), "2010-01-01"
	if _, err := s.RegisterPlayer(ctx, beijing, "", other); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("suspended agency: got %v, want permission denied", err)
	}
}

func TestRegisterPlayerIdempotent(t *testing.T) {
	ctx := context.Background()
	s, pool := newServiceDB(t)
	first, err := s.RegisterPlayer(ctx, beijing, "k1", zhang())
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.RegisterPlayer(ctx, beijing, "k1", zhang())
	if err != nil {
		t.Fatalf("retry with the same key: %v", err)
	}
	if again.ID != first.ID {
		t.Fatalf("retry made player %d, first was %d", again.ID, first.ID)
	}
	changed := zhang()
	changed.Name = "李四"
	if _, err := s.RegisterPlayer(ctx, beijing, "k1", changed); !errors.Is(err, ledger.ErrConflict) {
		t.Fatalf("same key, other request: got %v, want conflict", err)
	}
	page, err := s.SearchPlayers(ctx, staff, registry.PlayerQuery{})
	if err != nil || page.Total != 1 {
		t.Fatalf("players after retry: %d, %v", page.Total, err)
	}
	events, err := ledger.EventsFor(ctx, pool, "player", "1")
	if err != nil || len(events) != 1 {
		t.Fatalf("events after retry: %d, %v", len(events), err)
	}
	// the same change read by who made it: Beijing's registration, not staff's agencies
	now := clock()
	by, err := ledger.EventsBy(ctx, pool, beijing.String(), now.Add(-time.Hour), now.Add(time.Hour))
	if err != nil || len(by) != 1 || by[0].Action != "player.registered" || by[0].ID != events[0].ID {
		t.Fatalf("events by %s: %+v, %v", beijing, by, err)
	}
	if by, _ := ledger.EventsBy(ctx, pool, beijing.String(), now.Add(time.Hour), now.Add(2*time.Hour)); len(by) != 0 {
		t.Fatalf("events by %s after the change: %+v", beijing, by)
	}
}

func TestValidationNamesTheField(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	tests := []struct {
		field string
		edit  func(*registry.PlayerInput)
	}{
		{"name", func(p *registry.PlayerInput) { p.Name = " " }},
		{"gender", func(p *registry.PlayerInput) { p.Gender = "X" }},
		{"birth_date", func(p *registry.PlayerInput) { p.BirthDate = "31/12/1949" }},
		{"identity_number", func(p *registry.PlayerInput) { p.IDNumber = "110105194912310021" }},
		{"identity_number", func(p *registry.PlayerInput) { p.BirthDate = "1949-12-30" }},
		{"province_code", func(p *registry.PlayerInput) { p.ProvinceCode = "99" }},
		{"rank", func(p *registry.PlayerInput) { p.Rank = "10d" }},
		{"identity_kind", func(p *registry.PlayerInput) { p.IDKind = registry.Passport }},
	}
	for _, tt := range tests {
		in := zhang()
		tt.edit(&in)
		_, err := s.RegisterPlayer(ctx, beijing, "", in)
		var fe *ledger.Error
		if !errors.As(err, &fe) || fe.Field != tt.field {
			t.Errorf("%s: got %v, want a field error on %s", tt.field, err, tt.field)
		}
	}
}

func TestSearchPagination(t *testing.T) {
	ctx := context.Background()
	s, store := newServiceStore(t)
	for i := range 5 {
		id := residentID("2010-01-01", i+1)
		in := zhang() // declared 3d
		in.IDNumber, in.BirthDate, in.Name = id, "2010-01-01", "王"+string(rune('一'+i))
		p, err := s.RegisterPlayer(ctx, beijing, "", in)
		if err != nil {
			t.Fatalf("register %s: %v", id, err)
		}
		if i%2 == 0 { // certified 5d, as certification sets it
			if err := ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
				return registry.SetRank(ctx, tx, clock(), staff, p.ID, registry.NoRank, 5, "certificate issued")
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var seen []int64
	token := ""
	for {
		page, err := s.SearchPlayers(ctx, staff, registry.PlayerQuery{Name: "王", PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 5 {
			t.Fatalf("total = %d", page.Total)
		}
		for _, p := range page.Players {
			seen = append(seen, p.ID)
		}
		if token = page.NextPageToken; token == "" {
			break
		}
	}
	if len(seen) != 5 {
		t.Fatalf("paged through %v", seen)
	}
	page, err := s.SearchPlayers(ctx, staff, registry.PlayerQuery{Rank: "5d", ProvinceCode: "11"})
	if err != nil || page.Total != 3 {
		t.Fatalf("rank filter: %d, %v", page.Total, err)
	}
	// declared ranks are never searched as if certified
	if page, err := s.SearchPlayers(ctx, staff, registry.PlayerQuery{Rank: "3d"}); err != nil || page.Total != 0 {
		t.Fatalf("searching the declared 3d: %d, %v; want none", page.Total, err)
	}
	// the five are minors (born 2010): the public does not find them, their agency and staff do
	public, shanghai := ledger.Actor{Kind: ledger.Public}, ledger.Actor{Kind: ledger.AgencyActor, Agency: "310"}
	for _, tt := range []struct {
		who   ledger.Actor
		total int64
	}{{public, 0}, {shanghai, 0}, {beijing, 5}, {staff, 5}} {
		if page, err := s.SearchPlayers(ctx, tt.who, registry.PlayerQuery{Name: "王"}); err != nil || page.Total != tt.total {
			t.Errorf("minors found by %s: %d, %v; want %d", tt.who, page.Total, err, tt.total)
		}
	}
	if _, err := s.SearchPlayers(ctx, staff, registry.PlayerQuery{PageToken: "garbage!"}); !registry.IsFieldError(err) {
		t.Fatalf("bad token: %v", err)
	}
}

func TestEventLogChainDetectsTampering(t *testing.T) {
	ctx := context.Background()
	s, pool := newServiceDB(t)
	if _, err := s.RegisterPlayer(ctx, beijing, "", zhang()); err != nil {
		t.Fatal(err)
	}
	n, err := ledger.VerifyLog(ctx, pool)
	if err != nil || n != 3 {
		t.Fatalf("intact log: %d rows, %v", n, err)
	}
	if _, err := pool.Exec(ctx, `UPDATE events SET actor = 'x' WHERE id = 2`); err == nil {
		t.Fatal("the event log accepted an UPDATE")
	}
	tamper := `SET session_replication_role = replica; UPDATE events SET payload = '{"name":"forged"}' WHERE id = 2`
	if _, err := pool.Exec(ctx, tamper); err != nil {
		t.Fatal(err)
	}
	_, err = ledger.VerifyLog(ctx, pool)
	var broken *ledger.BrokenLink
	if !errors.As(err, &broken) || broken.ID != 2 {
		t.Fatalf("tampered log: got %v, want row 2 named", err)
	}
}

func TestTokens(t *testing.T) {
	ctx := context.Background()
	s, pool := newServiceDB(t)
	tok, info, err := s.CreateToken(ctx, staff, ledger.AgencyActor, "110", "")
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Authenticate(ctx, tok)
	if err != nil || a.Kind != ledger.AgencyActor || a.Agency != "110" {
		t.Fatalf("Authenticate = %+v, %v", a, err)
	}
	if _, _, err := s.CreateToken(ctx, staff, ledger.AgencyActor, "120", ""); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("token for agency that does not exist: %v", err)
	}
	if err := s.RevokeToken(ctx, staff, info.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, tok); !errors.Is(err, ledger.ErrUnauthenticated) {
		t.Fatalf("revoked token: %v", err)
	}
	var stored int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM api_tokens WHERE hash = $1::text::bytea`, tok).Scan(&stored); err != nil || stored != 0 {
		t.Fatalf("token stored in plain text: %d, %v", stored, err)
	}
}

// TestDeclaredRanks: a rank entered without a certificate is declared, at
// most 3 dan; 4 to 7 dan and honorary 8 dan are refused with the route that
// leads to them, and only staff record 8 dan, with its basis.
func TestDeclaredRanks(t *testing.T) {
	ctx := context.Background()
	s, store := newServiceStore(t)
	for _, tt := range []struct {
		rank, code string
	}{{"4d", "DECLARED_RANK_TOO_HIGH"}, {"7d", "DECLARED_RANK_TOO_HIGH"}, {"8d", "HONORARY_BY_STAFF"}} {
		in := zhang()
		in.Rank = tt.rank
		_, err := s.RegisterPlayer(ctx, beijing, "", in)
		e, ok := ledger.AsError(err)
		if !errors.Is(err, ledger.ErrPrecondition) || !ok || e.Reason.Code() != tt.code || e.Field != "rank" {
			t.Errorf("declaring %s: %v, want failed precondition %s on rank", tt.rank, err, tt.code)
			continue
		}
		if tt.code == "DECLARED_RANK_TOO_HIGH" && (!strings.Contains(e.Message(ledger.Chinese), "公示") || !strings.Contains(e.Message(ledger.English), "paper certificate")) {
			t.Errorf("the refusal of %s does not name the routes (a certificate with notice, a paper record): %v", tt.rank, e)
		}
	}
	p, err := s.RegisterPlayer(ctx, beijing, "", zhang())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordHonoraryDan(ctx, beijing, "", p.ID, "贡献"); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency recording 8 dan: %v, want permission denied", err)
	}
	if _, err := s.RecordHonoraryDan(ctx, staff, "", p.ID, " "); ledger.KindOf(err) != ledger.Invalid {
		t.Fatalf("8 dan without a basis: %v, want invalid argument", err)
	}
	got, err := s.RecordHonoraryDan(ctx, staff, "", p.ID, "为围棋普及作出突出贡献")
	if err != nil || got.Rank != registry.HonoraryDan8 || got.HonoraryBasis != "为围棋普及作出突出贡献" || got.DeclaredRank != 3 {
		t.Fatalf("honorary 8 dan: %+v, %v", got, err)
	}
	evs, _ := ledger.EventsFor(ctx, store.DB(), "player", strconv.FormatInt(p.ID, 10))
	if len(evs) != 2 || evs[1].Action != "player.honorary_dan" || evs[1].Actor != staff.String() {
		t.Fatalf("events: %+v", evs)
	}
	// a rank stored before ranks needed certificates is listed for staff
	if _, err := store.DB().Exec(ctx, `UPDATE players SET declared_rank = 5 WHERE id = $1`, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeclaredHighRanks(ctx, beijing); !errors.Is(err, ledger.ErrPermissionDenied) {
		t.Fatalf("agency reading the review list: %v", err)
	}
	list, err := s.DeclaredHighRanks(ctx, staff)
	if err != nil || len(list) != 1 || list[0].ID != p.ID {
		t.Fatalf("review list: %+v, %v", list, err)
	}
}

// TestNameSearch: a name search finds the players whose name holds the
// query's characters together and in order (ASCII letters in either case),
// through the per-character table, which follows a corrected name.
func TestNameSearch(t *testing.T) {
	ctx := context.Background()
	s, store := newServiceStore(t)
	ids := map[string]int64{}
	for i, name := range []string{"王伟", "伟王", "王伟伟", "欧阳明", "李Ab", "张三"} {
		in := zhang()
		in.IDNumber, in.BirthDate, in.Name = residentID("1990-01-01", i+1), "1990-01-01", name
		p, err := s.RegisterPlayer(ctx, beijing, "", in)
		if err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
		ids[name] = p.ID
	}
	find := func(q string) []string {
		t.Helper()
		page, err := s.SearchPlayers(ctx, ledger.Actor{Kind: ledger.Public}, registry.PlayerQuery{Name: q})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range page.Players {
			names = append(names, p.Name)
		}
		if int(page.Total) != len(names) {
			t.Errorf("%q: total %d, page %v", q, page.Total, names)
		}
		return names
	}
	for _, tt := range []struct{ q, want string }{
		{"王伟", "王伟 王伟伟"},
		{"伟", "王伟 伟王 王伟伟"},
		{"伟伟", "王伟伟"},
		{"欧阳", "欧阳明"},
		{"阳欧", ""},
		{"ab", "李Ab"},
		{"AB", "李Ab"},
		{"%", ""},
		{"张三", "张三"},
		{"王伟伟", "王伟伟"},
		{"伟王伟", ""},
		{"欧阳明", "欧阳明"},
		{"李ab", "李Ab"},
	} {
		if got := strings.Join(find(tt.q), " "); got != tt.want {
			t.Errorf("search %q: %q, want %q", tt.q, got, tt.want)
		}
	}
	// page by page, one at a time, through a query LIKE checks
	var paged []string
	for token := ""; ; {
		page, err := s.SearchPlayers(ctx, ledger.Actor{Kind: ledger.Public}, registry.PlayerQuery{Name: "王伟", PageSize: 1, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Players {
			paged = append(paged, p.Name)
		}
		if token = page.NextPageToken; token == "" {
			break
		}
	}
	if got := strings.Join(paged, " "); got != "王伟 王伟伟" {
		t.Errorf("paged through 王伟: %q", got)
	}
	in := zhang()
	in.IDNumber, in.BirthDate, in.Name = residentID("1990-01-01", 6), "1990-01-01", "李四"
	if _, err := s.UpdatePlayer(ctx, beijing, "", ids["张三"], in); err != nil {
		t.Fatal(err)
	}
	if got := find("张三"); len(got) != 0 {
		t.Errorf("the old name still found: %v", got)
	}
	if got := strings.Join(find("李四"), " "); got != "李四" {
		t.Errorf("the corrected name: %q", got)
	}
	if got := strings.Join(find("李"), " "); got != "李Ab 李四" {
		t.Errorf("李: %q", got)
	}
	// a deleted player (no path of the registry deletes one; a repair by
	// hand might) takes its grams with it
	grams := func(id int64) (n int) {
		t.Helper()
		if err := store.DB().QueryRow(ctx, `SELECT count(*) FROM player_name_grams WHERE player_id = $1`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if grams(ids["欧阳明"]) != 6 { // 欧 阳 明 欧阳 阳明 欧阳明 (migration 00111)
		t.Fatalf("欧阳明 has %d grams", grams(ids["欧阳明"]))
	}
	if _, err := store.DB().Exec(ctx, `DELETE FROM players WHERE id = $1`, ids["欧阳明"]); err != nil {
		t.Fatal(err)
	}
	if n := grams(ids["欧阳明"]); n != 0 {
		t.Errorf("%d grams left of a deleted player", n)
	}
}

// TestSearchNameGramsProvince: a name search within a province finds the
// province's players under the name's grams, and follows a transfer (the
// grams carry the province: migration 00110); players of other provinces
// under the same name are not listed.
func TestSearchNameGramsProvince(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	var moved int64
	for i, pre := range []string{"110", "110", "310"} {
		in := zhang()
		in.IDNumber, in.BirthDate, in.Name, in.ProvinceCode = residentID("1990-01-01", i+1), "1990-01-01", "张梓涵", pre[:2]
		p, err := s.RegisterPlayer(ctx, ledger.Actor{Kind: ledger.AgencyActor, Agency: pre}, "", in)
		if err != nil {
			t.Fatal(err)
		}
		moved = p.ID
	}
	count := func(name, prov string) int {
		t.Helper()
		page, err := s.SearchPlayers(ctx, ledger.Actor{Kind: ledger.Public}, registry.PlayerQuery{Name: name, ProvinceCode: prov})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Players {
			if p.ProvinceCode != prov {
				t.Errorf("%s in %s: listed %d of province %s", name, prov, p.ID, p.ProvinceCode)
			}
		}
		if int(page.Total) != len(page.Players) {
			t.Errorf("%s in %s: total %d, page of %d", name, prov, page.Total, len(page.Players))
		}
		return len(page.Players)
	}
	for _, tt := range []struct {
		name, prov string
		want       int
	}{{"张", "11", 2}, {"梓", "31", 1}, {"张梓涵", "11", 2}, {"梓涵", "31", 1}, {"张", "44", 0}} {
		if got := count(tt.name, tt.prov); got != tt.want {
			t.Errorf("%s in %s: %d found, want %d", tt.name, tt.prov, got, tt.want)
		}
	}
	if _, err := s.TransferPlayer(ctx, staff, "", moved, "11"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, prov string
		want       int
	}{{"张", "31", 0}, {"张", "11", 3}, {"张梓涵", "11", 3}, {"梓涵", "31", 0}} {
		if got := count(tt.name, tt.prov); got != tt.want {
			t.Errorf("after the transfer, %s in %s: %d found, want %d", tt.name, tt.prov, got, tt.want)
		}
	}
}
