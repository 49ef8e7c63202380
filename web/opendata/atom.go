package opendata

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/registry"
)

// The feeds are Atom (RFC 4287), written with encoding/xml: a feed's few
// required elements do not need a library, and the structs below say
// exactly which elements a reader gets.

// AtomNS is the Atom namespace.
const AtomNS = "http://www.w3.org/2005/Atom"

// feedEntries bounds a feed: the newest entries only, as feeds go; the
// full history is the notices' pages and the event log.
const feedEntries = 50

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr,omitempty"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Rights  string      `xml:"rights"`
	Author  atomPerson  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
	URI  string `xml:"uri,omitempty"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomCategory struct {
	Scheme string `xml:"scheme,attr,omitempty"`
	Term   string `xml:"term,attr"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

type atomEntry struct {
	ID         string         `xml:"id"`
	Title      string         `xml:"title"`
	Updated    string         `xml:"updated"`
	Published  string         `xml:"published,omitempty"`
	Links      []atomLink     `xml:"link"`
	Categories []atomCategory `xml:"category"`
	Summary    atomText       `xml:"summary"`
}

// rfc3339 is Atom's date form.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// sendFeed writes the feed.
func (f *Files) sendFeed(w http.ResponseWriter, r *http.Request, feed atomFeed) {
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	_, _ = w.Write([]byte(xml.Header))
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	if err := enc.Encode(feed); err != nil {
		f.aborted(r, err)
	}
}

// newFeed is a feed's head: its id is its own address.
func (f *Files) newFeed(r *http.Request, title string, v version) atomFeed {
	base := f.base(r)
	self := base + r.URL.Path
	return atomFeed{Lang: "zh-CN", ID: self, Title: title, Updated: rfc3339(v.modified),
		Rights: "© " + "dankyu registry, " + License + " " + LicenseURL,
		Author: atomPerson{Name: "dankyu registry", URI: base + "/"},
		Links: []atomLink{{Rel: "self", Type: "application/atom+xml", Href: self}, {Rel: "license", Href: LicenseURL},
			{Rel: "alternate", Type: "text/html", Href: base + "/notices"}}}
}

// noticeStates are a notice's state in both languages.
var noticeStates = map[certs.NoticeStatus]string{
	certs.NoticeOpen: "公示中 open", certs.NoticeIssued: "已发证 issued", certs.NoticeFailed: "未通过 failed",
}

// notices serves the newest notices, national or of the path's province:
// what the notices' pages show of each (name, rank, province, agency,
// basis, period, state), no more.
func (f *Files) notices(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	code, ok := province(r)
	if !ok {
		f.site.Fail(w, r, errNotFound)
		return
	}
	v, err := f.versionOf(ctx, false)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	if v.answered(w, r) {
		return
	}
	page, err := f.src.Certs.ListNotices(ctx, certs.NoticeQuery{ProvinceCode: code, PageSize: feedEntries})
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	title := "段位公示 Rank notices"
	if code != "" {
		p, _ := registry.ProvinceByCode(code)
		title = p.NameZH + " " + title + " — " + p.NameEN
	}
	feed := f.newFeed(r, title, v)
	base := f.base(r)
	for _, n := range page.Notices {
		link := base + "/notices/" + strconv.FormatInt(n.ID, 10)
		updated := n.PublishedAt
		if n.ClosedAt != nil && n.ClosedAt.After(updated) {
			updated = *n.ClosedAt
		}
		prov := n.ProvinceCode
		if p, ok := registry.ProvinceByCode(n.ProvinceCode); ok {
			prov = p.NameZH
		}
		var s strings.Builder
		s.WriteString(n.Rank.Chinese() + " " + n.Rank.English() + " · " + prov + " · " + n.AgencyName + " · " + string(n.Basis))
		s.WriteString(" · 公示期 period " + n.PublishedAt.In(chinaTime).Format(time.DateOnly) + " – " + n.EndsAt.In(chinaTime).Format(time.DateOnly))
		s.WriteString(" · " + noticeStates[n.Status])
		if n.CertificateNumber != "" {
			s.WriteString(" · 证书 certificate " + n.CertificateNumber)
		}
		feed.Entries = append(feed.Entries, atomEntry{ID: link, Title: n.PlayerName + " " + n.Rank.Chinese() + "（" + prov + "）",
			Updated: rfc3339(updated), Published: rfc3339(n.PublishedAt),
			Links:      []atomLink{{Rel: "alternate", Type: "text/html", Href: link}},
			Categories: []atomCategory{{Scheme: base + "/notices/states", Term: string(n.Status)}, {Scheme: base + "/provinces", Term: n.ProvinceCode}},
			Summary:    atomText{Type: "text", Text: s.String()}})
	}
	f.sendFeed(w, r, feed)
}

// revocationActions are the events the revocation feed lists.
var revocationActions = []string{certs.CertificateRevokedPayload{}.Action(), certs.CertificateReissuedPayload{}.Action()}

// revocations serves the newest revocations and reissues, from the event
// log: each with what the public verification shows of the certificate
// (number, rank, issuer, its status and the status's reason) and a link
// to that verification. The holder's name is left out: a verifier
// matches the number, and the feed then names no minor.
func (f *Files) revocations(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, err := f.versionOf(ctx, false)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	if v.answered(w, r) {
		return
	}
	evs, err := f.src.Log.LatestEvents(ctx, revocationActions, feedEntries)
	if err != nil {
		f.site.Fail(w, r, err)
		return
	}
	feed := f.newFeed(r, "证书撤销与换发 Certificate revocations and reissues", v)
	feed.Links[2].Href = f.base(r) + "/verify"
	base := f.base(r)
	self := feed.ID
	for _, e := range evs {
		vf, err := f.src.Certs.Verify(ctx, e.EntityID)
		if err != nil || !vf.Found {
			continue // a number no longer read (merged away): nothing public to say
		}
		c := vf.Certificate
		link := base + "/verify?" + url.Values{"number": {e.EntityID}}.Encode()
		title := "证书 " + e.EntityID + " 已撤销 · certificate revoked"
		term := "revoked"
		var s strings.Builder
		if e.Action == (certs.CertificateReissuedPayload{}).Action() {
			var p certs.CertificateReissuedPayload
			_ = json.Unmarshal(e.Payload, &p)
			title = "证书 " + e.EntityID + " 已换发为 " + p.NewNumber + " · certificate reissued as " + p.NewNumber
			term = "reissued"
		}
		if vf.UnderReview == nil {
			s.WriteString(c.Rank.Chinese() + " " + c.Rank.English() + " · " + c.IssuingBody + " · 发证 issued " + c.IssueDate.Format(time.DateOnly))
			s.WriteString(" · 现状 now " + string(c.Status))
			if c.StatusReason != "" {
				s.WriteString(" · 原因 reason: " + c.StatusReason)
			}
		} else {
			s.WriteString("复核中 under review")
		}
		feed.Entries = append(feed.Entries, atomEntry{ID: self + "#event-" + strconv.FormatInt(e.ID, 10), Title: title,
			Updated: rfc3339(e.At), Published: rfc3339(e.At),
			Links:      []atomLink{{Rel: "alternate", Type: "text/html", Href: link}},
			Categories: []atomCategory{{Scheme: base + "/certificates/changes", Term: term}},
			Summary:    atomText{Type: "text", Text: s.String()}})
	}
	f.sendFeed(w, r, feed)
}
