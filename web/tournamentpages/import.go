package tournamentpages

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// importView is the import page: the file carried between the steps, and
// how its players match the registry.
type importView struct {
	Data     string // the file, base64, so the second step needs no new upload
	FileName string
	Level    string
	Result   *tournaments.ImportResult
	Err      string
	Idem     string
	CSRF     string
}

func (p *Pages) importForm(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.SignedIn(w, r); !ok {
		return
	}
	p.Render(w, r, http.StatusOK, importPage(p.Page(w, r, "import"), importView{Level: "city", Idem: kit.RandomHex(12), CSRF: p.FormToken(w, r)}))
}

// importFile checks a tournament file against the registry (first step) and
// brings it in once every player is matched or a guest (second step).
func (p *Pages) importFile(w http.ResponseWriter, r *http.Request) {
	a, ok := p.SignedIn(w, r)
	if !ok {
		return
	}
	pg := p.Page(w, r, "import")
	v := importView{Level: r.PostFormValue("level"), Idem: kit.RandomHex(12), CSRF: p.FormToken(w, r)}
	show := func(code int, err error) {
		if err != nil {
			v.Err = p.UserError(r, pg, err)
		}
		p.Render(w, r, code, importPage(pg, v))
	}
	if err := r.ParseMultipartForm(4 << 20); err != nil && err != http.ErrNotMultipart {
		show(http.StatusBadRequest, kit.ReasonUploadUnreadable.OnField("file"))
		return
	}
	if !p.FormOK(r) {
		v.Err = pg.T["form_expired"]
		p.Render(w, r, http.StatusForbidden, importPage(pg, v))
		return
	}
	var data []byte
	if f, hdr, err := r.FormFile("file"); err == nil {
		data, err = io.ReadAll(io.LimitReader(f, 2<<20))
		f.Close()
		if err != nil {
			show(http.StatusBadRequest, kit.ReasonUploadUnreadable.OnField("file"))
			return
		}
		v.FileName = hdr.Filename
	} else if enc := r.PostFormValue("data"); enc != "" {
		if data, err = base64.StdEncoding.DecodeString(enc); err != nil {
			show(http.StatusBadRequest, kit.ReasonUploadUnreadable.OnField("file"))
			return
		}
		v.FileName = r.PostFormValue("filename")
	} else {
		show(http.StatusBadRequest, reasonUploadMissing.OnField("file"))
		return
	}
	v.Data = base64.StdEncoding.EncodeToString(data)
	in := tournaments.ImportInput{Data: data, Format: r.PostFormValue("format"), Level: v.Level, Matches: map[int]int64{},
		Commit: r.PostFormValue("commit") == "1"}
	for key, vals := range r.PostForm {
		switch {
		case strings.HasPrefix(key, "match_") && len(vals) > 0 && strings.TrimSpace(vals[0]) != "":
			i, err1 := strconv.Atoi(strings.TrimPrefix(key, "match_"))
			// the registry number as typed: full-width digits (１６) are read as 16
			id, err2 := strconv.ParseInt(kit.Narrow(vals[0]), 10, 64)
			if err1 != nil || err2 != nil {
				show(http.StatusBadRequest, reasonNotAPlayerNumber.OnField(key, "value", vals[0]))
				return
			}
			in.Matches[i] = id
		case strings.HasPrefix(key, "bye_") && len(vals) > 0 && vals[0] == "on":
			if i, err := strconv.Atoi(strings.TrimPrefix(key, "bye_")); err == nil {
				in.ByePlayers = append(in.ByePlayers, i)
			}
		case strings.HasPrefix(key, "confirm_") && len(vals) > 0 && strings.TrimSpace(vals[0]) != "":
			// the clerk's choice among the proposals; a number typed beside it wins
			i, err1 := strconv.Atoi(strings.TrimPrefix(key, "confirm_"))
			id, err2 := strconv.ParseInt(strings.TrimSpace(vals[0]), 10, 64)
			if err1 != nil || err2 != nil {
				show(http.StatusBadRequest, reasonNotAPlayerNumber.OnField("match_"+strings.TrimPrefix(key, "confirm_"), "value", vals[0]))
				return
			}
			if _, typed := in.Matches[i]; !typed && strings.TrimSpace(r.PostFormValue("match_"+strconv.Itoa(i))) == "" {
				in.Matches[i] = id
			}
		case strings.HasPrefix(key, "guest_") && len(vals) > 0 && vals[0] == "on":
			if i, err := strconv.Atoi(strings.TrimPrefix(key, "guest_")); err == nil {
				in.Guests = append(in.Guests, i)
			}
		}
	}
	if r.PostFormValue("unmatched_guests") == "1" {
		in.Commit = false
		guests, err := p.unmatchedAsGuests(r, a, in)
		if err != nil {
			show(kit.HTTPStatus(err), err)
			return
		}
		in.Guests = guests
	}
	// checking the file changes nothing; bringing it in uses the form's
	// token up (a replay is refused, a repeat answered with the event)
	var claim kit.FormClaim
	if in.Commit {
		if claim = p.ClaimForm(r); claim.Repeat != "" {
			http.Redirect(w, r, claim.Repeat, http.StatusSeeOther)
			return
		}
		if !claim.OK() {
			v.Err = pg.T[claim.Refused]
			p.Render(w, r, claim.Status, importPage(pg, v))
			return
		}
	}
	res, err := p.tours.ImportEvent(r.Context(), a, r.PostFormValue("idem"), in)
	if res.Summary.Format != "" {
		v.Result = &res
	}
	if err != nil {
		claim.Settle("")
		show(kit.HTTPStatus(err), err)
		return
	}
	if res.Event != nil {
		to := fmt.Sprintf("/tournaments/%d?ok=imported", res.Event.ID)
		claim.Settle(to)
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	claim.Settle("")
	show(http.StatusOK, nil)
}

// unmatchedAsGuests checks the file as it stands and returns the guests
// ticked plus every player still matched to nobody: "mark every
// unmatched player as a guest", shown for a last look before importing.
func (p *Pages) unmatchedAsGuests(r *http.Request, a ledger.Actor, in tournaments.ImportInput) ([]int, error) {
	res, err := p.tours.ImportEvent(r.Context(), a, "", in)
	if err != nil {
		return nil, err
	}
	guests := in.Guests
	for _, ip := range res.Players {
		if ip.Status == "unmatched" {
			guests = append(guests, ip.Index)
		}
	}
	return guests, nil
}

func idOrEmpty(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

func joinIDs(ids []int64) string {
	var s []string
	for _, id := range ids {
		s = append(s, strconv.FormatInt(id, 10))
	}
	return strings.Join(s, ", ")
}

// warningText words an import warning in the page's language: a coded one
// in Chinese or English, a reader's note on a cell as the reader wrote it.
func warningText(p kit.Page, w tournaments.Warning) string {
	if w.Code != "" && p.Lang != ledger.English && w.MsgZH != "" {
		return w.MsgZH
	}
	return w.String()
}

// byeConfirmed: the file player is taken as a placeholder standing for byes.
func byeConfirmed(ps []tournaments.ImportPlayer, index int) bool {
	for _, ip := range ps {
		if ip.Index == index {
			return ip.Status == "bye"
		}
	}
	return false
}

// confirmedID is the player number shown in a row's box: the player the
// row is matched to, none for a proposal (the clerk decides).
func confirmedID(ip tournaments.ImportPlayer) int64 {
	if ip.Status == tournaments.MatchMatched {
		return ip.PlayerID
	}
	return 0
}

// fileFact is what the file says of a fact.
func fileFact(ip tournaments.ImportPlayer, fact string) string {
	f := ip.File
	switch fact {
	case tournaments.FactName:
		return ip.Name
	case tournaments.FactProvince:
		return strings.TrimSpace(f.Club + " " + f.Region)
	case tournaments.FactBirthYear:
		if f.BirthYear > 0 {
			return strconv.Itoa(f.BirthYear)
		}
	case tournaments.FactRank:
		return f.Rank
	case tournaments.FactEGDPin:
		return f.EGDPin
	}
	return ""
}

// candidateFact is a candidate's fact as the clerk may see it.
func candidateFact(p kit.Page, c tournaments.Candidate, fact string) string {
	switch fact {
	case tournaments.FactName:
		return c.Name + " (" + c.LatinName + ")"
	case tournaments.FactProvince:
		if pr, ok := registry.ProvinceByCode(c.ProvinceCode); ok {
			if p.Lang == ledger.English {
				return pr.NameEN
			}
			return pr.NameZH
		}
	case tournaments.FactBirthYear:
		if c.Minor {
			return p.T["imp_minor"]
		}
		return strconv.Itoa(c.BirthYear) + " · " + c.Identity
	case tournaments.FactRank:
		return c.Rank
	case tournaments.FactEGDPin:
		return c.EGDPin
	}
	return ""
}
