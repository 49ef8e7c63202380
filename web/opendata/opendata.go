// Package opendata is the registry's open data (docs/open-data.md): the
// rating list as the files pairing programs import (the EGD's fixed-width
// list, which OpenGotha and pairgoth read) and as CSV with Latin names,
// PINs and registry numbers, each player's rating history, the list of
// tournaments, the certificate statistics crossed by year, province and
// rank, and Atom feeds of the notices (公示) and of revocations.
//
// Every file carries an ETag and a Last-Modified derived from the event
// log's position (every change is logged, so one indexed read says whether
// anything may have changed) and answers a conditional GET with 304 before
// reading anything else. Files are written as they are read, a page of
// rows at a time, never held whole. They show nobody and nothing the
// public pages hide: the lists of players follow the public player
// search, which lists no minor.
package opendata

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// License is the open data's license, named in every file (a header line,
// an Atom rights element) and in a Link header.
const (
	License     = "CC BY 4.0"
	LicenseURL  = "https://creativecommons.org/licenses/by/4.0/"
	licenseLink = `<` + LicenseURL + `>; rel="license"`
	// formatVersion is part of every ETag: a change of a file's layout
	// changes its tag although the data did not change.
	formatVersion = "od1"
)

// Log is the event log as the files read it: its position, and its newest
// events of some kinds (the revocations).
type Log interface {
	LogPosition(ctx context.Context) (int64, time.Time, error)
	LatestEvents(ctx context.Context, actions []string, limit int) ([]ledger.LoggedEvent, error)
}

// StoreLog is Log over the kernel's store.
type StoreLog struct{ Store *ledger.Store }

func (l StoreLog) LogPosition(ctx context.Context) (int64, time.Time, error) {
	return ledger.LogPosition(ctx, l.Store.DB())
}

func (l StoreLog) LatestEvents(ctx context.Context, actions []string, limit int) ([]ledger.LoggedEvent, error) {
	return ledger.LatestEvents(ctx, l.Store.DB(), actions, limit)
}

// Ratings are the ratings book's reads.
type Ratings interface {
	ListedPage(ctx context.Context, province string, after book.ListCursor, limit int) ([]book.Listed, error)
	PlayerRating(ctx context.Context, playerID int64) (book.Rating, error)
}

// Players are the registry's reads: the players the public search lists,
// and one player (his page).
type Players interface {
	PubliclyListed(ctx context.Context, ids []int64) (map[int64]registry.Player, error)
	GetPlayer(ctx context.Context, id int64) (registry.Player, error)
}

// Certs are the certificates' reads.
type Certs interface {
	ListNotices(ctx context.Context, q certs.NoticeQuery) (certs.NoticePage, error)
	CertificateCounts(ctx context.Context) ([]certs.CountCell, error)
	Verify(ctx context.Context, number string) (certs.Verification, error)
}

// Tournaments are the events' reads.
type Tournaments interface {
	EventsAfter(ctx context.Context, after int64, limit int) ([]tournaments.Event, error)
}

// Sources are what the files are read from; a nil source serves no file
// of its kind.
type Sources struct {
	Log         Log
	Ratings     Ratings
	Players     Players
	Certs       Certs
	Tournaments Tournaments
	// PublicURL is the portal's address, the base of the feeds' links and
	// ids ("" : the request's host).
	PublicURL string
}

// Files serve the open data.
type Files struct {
	site *kit.Site
	src  Sources
	now  func() time.Time
	log  *slog.Logger
}

// New returns the open data files over the site (its clock, logger and
// error pages) and the sources.
func New(site *kit.Site, src Sources) *Files {
	return &Files{site: site, src: src, now: site.Now, log: site.Log()}
}

// Routes registers the files (GET, and so HEAD).
func (f *Files) Routes(mux *http.ServeMux) {
	if f.src.Log == nil {
		return
	}
	if f.src.Ratings != nil && f.src.Players != nil {
		mux.HandleFunc("GET /data/ratings.txt", f.ratingList(egdList))
		mux.HandleFunc("GET /data/ratings.csv", f.ratingList(csvList))
		mux.HandleFunc("GET /data/provinces/{code}/ratings.txt", f.ratingList(egdList))
		mux.HandleFunc("GET /data/provinces/{code}/ratings.csv", f.ratingList(csvList))
		mux.HandleFunc("GET /data/players/{id}/ratings.csv", f.history)
	}
	if f.src.Tournaments != nil {
		mux.HandleFunc("GET /data/tournaments.csv", f.tournaments)
	}
	if f.src.Certs != nil {
		mux.HandleFunc("GET /data/statistics/certificates.csv", f.statistics)
		mux.HandleFunc("GET /data/notices.atom", f.notices)
		mux.HandleFunc("GET /data/provinces/{code}/notices.atom", f.notices)
		mux.HandleFunc("GET /data/revocations.atom", f.revocations)
	}
}

// version is what a file's validators are made of: the log's position,
// and for a file that depends on the date too (the lists follow the
// search's age rule, which moves at midnight in Beijing), that date.
type version struct {
	etag     string
	modified time.Time
}

// versionOf reads the log's position. A file read after it holds at least
// the changes up to it, so a tag never stands for older data than it says;
// a change committed meanwhile only makes the next request read again.
func (f *Files) versionOf(ctx context.Context, byDate bool) (version, error) {
	pos, at, err := f.src.Log.LogPosition(ctx)
	if err != nil {
		return version{}, err
	}
	tag := formatVersion + "-" + strconv.FormatInt(pos, 10)
	if byDate {
		day := f.now().In(ledger.ChinaTime)
		midnight := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, ledger.ChinaTime)
		tag += "-" + midnight.Format("20060102")
		if midnight.After(at) {
			at = midnight
		}
	}
	return version{etag: `"` + tag + `"`, modified: at.UTC().Truncate(time.Second)}, nil
}

// answered sets the validators and the license, and answers 304 when the
// request's condition says the client's copy is current (RFC 9110 13.2.2:
// If-None-Match first; If-Modified-Since only without it).
func (v version) answered(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("ETag", v.etag)
	if !v.modified.IsZero() {
		h.Set("Last-Modified", v.modified.Format(http.TimeFormat))
	}
	h.Add("Link", licenseLink)
	if h.Get("Cache-Control") == "" {
		// stored by anyone, asked again each time: the 304 is cheap
		h.Set("Cache-Control", "public, no-cache")
	}
	if r.Header.Get("If-None-Match") != "" {
		if kit.NoneMatch(r, v.etag) {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !v.modified.IsZero() {
		if t, err := http.ParseTime(ims); err == nil && !v.modified.After(t) {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// base is the absolute address the feeds' links and ids start with.
func (f *Files) base(r *http.Request) string {
	if f.src.PublicURL != "" {
		return strings.TrimSuffix(f.src.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// province reads the {code} of a per-province path: "" for the national
// file, ok false for a code that names no province (answered 404).
func province(r *http.Request) (string, bool) {
	code := r.PathValue("code")
	if code == "" {
		return "", true
	}
	p, ok := registry.ProvinceByCode(code)
	return code, ok && p.Prefix != registry.AssociationPrefix
}

// aborted ends a response whose body has begun: the status is sent, so
// the only honest signal left is a cut connection, which no client takes
// for a complete file.
func (f *Files) aborted(r *http.Request, err error) {
	f.log.ErrorContext(r.Context(), "open data file cut short", "path", r.URL.Path, "err", err)
	panic(http.ErrAbortHandler)
}

// errNotFound answers a path that names nothing (the site's 404 page).
var errNotFound = ledger.ErrNotFound

// chinaTime is Beijing time, the registry's dates.
var chinaTime = ledger.ChinaTime
