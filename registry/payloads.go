package registry

import (
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// The events' payloads: one type per action, whose JSON tags are the keys
// of the log's rows. The services append them and the bulk loads write the
// same rows. The fields of a type that replaced a map stand in the order of
// their keys, as the map wrote them, so that a row encodes byte for byte as
// before.

// Payloads are the payload types of the registry's actions, one value of
// each (internal/archtest checks the log's readers against them).
func Payloads() []ledger.Payload {
	return []ledger.Payload{
		AgencyCreatedPayload{}, AgencyStatusSetPayload{}, PlayerRegisteredPayload{}, PlayerUpdatedPayload{}, PlayerTransferredPayload{},
		PlayerMergedPayload{}, PlayerRankChangedPayload{}, PlayerHonoraryDanPayload{}, TokenCreatedPayload{}, TokenRevokedPayload{},
		PlayerIdentityChangeRequestedPayload{}, PlayerIdentityChangeApprovedPayload{}, PlayerIdentityChangeRejectedPayload{},
		PlayerIdentityCorrectedPayload{}, PlayerLatinNameSetPayload{}, PlayerExternalIDSetPayload{},
		InstitutionKeyIssuedPayload{}, InstitutionKeyRevokedPayload{}, PlayerAffiliationSetPayload{}, PlayerFamilyLinkedPayload{},
	}
}

// AgencyCreatedPayload is agency.created's payload: the agency as created
// (its keys are the field names the Agency it once was wrote).
type AgencyCreatedPayload struct {
	Prefix    string       `json:"Prefix"`
	Name      string       `json:"Name"`
	Contact   string       `json:"Contact"`
	Status    AgencyStatus `json:"Status"`
	CreatedAt time.Time    `json:"CreatedAt"`
	UpdatedAt time.Time    `json:"UpdatedAt"`
}

func (AgencyCreatedPayload) Action() string { return "agency.created" }

// NewAgencyCreatedPayload is agency.created's payload for a.
func NewAgencyCreatedPayload(a Agency) AgencyCreatedPayload {
	//lint:ignore S1016 the payload is the log's schema: a field added to Agency must not join it by a conversion
	return AgencyCreatedPayload{Prefix: a.Prefix, Name: a.Name, Contact: a.Contact, Status: a.Status, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// AgencyStatusSetPayload is agency.status_set's payload.
type AgencyStatusSetPayload struct {
	Reason string       `json:"reason"`
	Status AgencyStatus `json:"status"`
}

func (AgencyStatusSetPayload) Action() string { return "agency.status_set" }

// LoggedPlayer is what the event log keeps of a player: the identity number
// masked, and of his birth date only the year. A full birth date beside the
// masked number would give back most of what the mask hides (a resident ID
// number holds the birth date), so rows since issue 31 have birth_year
// instead; older rows keep their birth_date (the log is append-only), which
// its readers still read. Who needs a player's birth date on a day asks the
// registry (BirthDatesAt).
type LoggedPlayer struct {
	AgencyPrefix string `json:"agency_prefix"`
	// BirthDate (YYYY-MM-DD) is in rows written before issue 31 only.
	BirthDate      string       `json:"birth_date,omitempty"`
	BirthYear      int          `json:"birth_year,omitempty"`
	DeclaredRank   string       `json:"declared_rank"`
	Gender         Gender       `json:"gender"`
	ID             int64        `json:"id"`
	IdentityKind   IdentityKind `json:"identity_kind"`
	IdentityNumber string       `json:"identity_number"`
	Name           string       `json:"name"`
	Nationality    string       `json:"nationality"`
	ProvinceCode   string       `json:"province_code"`
	Rank           string       `json:"rank"`
}

// NewLoggedPlayer is what the log keeps of p.
func NewLoggedPlayer(p Player) LoggedPlayer {
	return LoggedPlayer{AgencyPrefix: p.AgencyPrefix, BirthYear: p.BirthDate.Year(), DeclaredRank: p.DeclaredRank.String(),
		Gender: p.Gender, ID: p.ID, IdentityKind: p.IDKind, IdentityNumber: MaskIdentity(p.IDNumber), Name: p.Name,
		Nationality: p.Nationality, ProvinceCode: p.ProvinceCode, Rank: p.Rank.String()}
}

// PlayerRegisteredPayload is player.registered's payload: the player as registered.
type PlayerRegisteredPayload LoggedPlayer

func (PlayerRegisteredPayload) Action() string { return "player.registered" }

// NewPlayerRegisteredPayload is player.registered's payload for p.
func NewPlayerRegisteredPayload(p Player) PlayerRegisteredPayload {
	return PlayerRegisteredPayload(NewLoggedPlayer(p))
}

// PlayerUpdatedPayload is player.updated's payload. BirthDateChanged says
// the birth date changed (its year may not have: the rows no longer hold
// the date; in older rows, compare before's and after's birth_date).
type PlayerUpdatedPayload struct {
	After            LoggedPlayer `json:"after"`
	Before           LoggedPlayer `json:"before"`
	BirthDateChanged bool         `json:"birth_date_changed,omitempty"`
}

func (PlayerUpdatedPayload) Action() string { return "player.updated" }

// NewPlayerUpdatedPayload is player.updated's payload from before to after.
func NewPlayerUpdatedPayload(before, after Player) PlayerUpdatedPayload {
	return PlayerUpdatedPayload{After: NewLoggedPlayer(after), Before: NewLoggedPlayer(before),
		BirthDateChanged: !before.BirthDate.Equal(after.BirthDate)}
}

// PlayerTransferredPayload is player.transferred's payload: the province codes.
type PlayerTransferredPayload struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (PlayerTransferredPayload) Action() string { return "player.transferred" }

// PlayerMergedPayload is player.merged's payload (the merged record's event).
type PlayerMergedPayload struct {
	Into int64 `json:"into"`
}

func (PlayerMergedPayload) Action() string { return "player.merged" }

// PlayerRankChangedPayload is player.rank_changed's payload (SetRank).
type PlayerRankChangedPayload struct {
	Because string `json:"because"`
	From    string `json:"from"`
	To      string `json:"to"`
}

func (PlayerRankChangedPayload) Action() string { return "player.rank_changed" }

// NewPlayerRankChangedPayload is player.rank_changed's payload.
func NewPlayerRankChangedPayload(from, to Rank, why string) PlayerRankChangedPayload {
	return PlayerRankChangedPayload{Because: why, From: from.String(), To: to.String()}
}

// PlayerHonoraryDanPayload is player.honorary_dan's payload: the rank is
// then honorary 8 dan.
type PlayerHonoraryDanPayload struct {
	Basis string `json:"basis"`
	From  string `json:"from"`
}

func (PlayerHonoraryDanPayload) Action() string { return "player.honorary_dan" }

// TokenCreatedPayload is token.created's payload.
type TokenCreatedPayload struct {
	Agency string `json:"agency"`
	Kind   string `json:"kind"`
	Staff  string `json:"staff"`
}

func (TokenCreatedPayload) Action() string { return "token.created" }

// TokenRevokedPayload is token.revoked's payload: nothing but the token's id, the entity.
type TokenRevokedPayload struct{}

func (TokenRevokedPayload) Action() string { return "token.revoked" }

// InstitutionKeyIssuedPayload is institution_key.issued's payload: to whom
// a verification key went and its quota; the key itself is never logged
// (shown is its first characters, as staff see them).
type InstitutionKeyIssuedPayload struct {
	Institution string `json:"institution"`
	Kind        string `json:"kind"`
	Quota       int    `json:"quota"`
	Per         string `json:"per"`
	Shown       string `json:"shown"`
}

func (InstitutionKeyIssuedPayload) Action() string { return "institution_key.issued" }

// InstitutionKeyRevokedPayload is institution_key.revoked's payload.
type InstitutionKeyRevokedPayload struct {
	Reason string `json:"reason"`
}

func (InstitutionKeyRevokedPayload) Action() string { return "institution_key.revoked" }

// PlayerIdentityChangeRequestedPayload is player.identity_change_requested's
// payload: an agency's change of a player's birth date or identity document,
// held for staff (numbers masked).
type PlayerIdentityChangeRequestedPayload struct {
	After            LoggedIdentity `json:"after"`
	Before           LoggedIdentity `json:"before"`
	BirthDateChanged bool           `json:"birth_date_changed,omitempty"`
	Change           int64          `json:"change"`
	Reason           string         `json:"reason"`
}

func (PlayerIdentityChangeRequestedPayload) Action() string {
	return "player.identity_change_requested"
}

// PlayerIdentityChangeApprovedPayload is player.identity_change_approved's
// payload: staff approved the change (the record's change itself is the
// player.updated logged beside it).
type PlayerIdentityChangeApprovedPayload struct {
	Change int64  `json:"change"`
	Reason string `json:"reason"`
}

func (PlayerIdentityChangeApprovedPayload) Action() string { return "player.identity_change_approved" }

// PlayerIdentityChangeRejectedPayload is player.identity_change_rejected's
// payload: staff rejected the change, and why.
type PlayerIdentityChangeRejectedPayload struct {
	Change int64  `json:"change"`
	Reason string `json:"reason"`
}

func (PlayerIdentityChangeRejectedPayload) Action() string { return "player.identity_change_rejected" }

// PlayerIdentityCorrectedPayload is player.identity_corrected's payload: a
// change of identity that took effect at once (basis "staff", or
// "registration_day" for an agency's same-day correction), with its reason;
// the player.updated beside it logs the record's change.
type PlayerIdentityCorrectedPayload struct {
	After            LoggedIdentity `json:"after"`
	Basis            string         `json:"basis"`
	Before           LoggedIdentity `json:"before"`
	BirthDateChanged bool           `json:"birth_date_changed,omitempty"`
	Change           int64          `json:"change"`
	Reason           string         `json:"reason"`
}

func (PlayerIdentityCorrectedPayload) Action() string { return "player.identity_corrected" }

// PlayerLatinNameSetPayload is player.latin_name_set's payload: the Latin
// name the agency stated (to; "" returns to the pinyin), the one before, and
// the pinyin of the registered name at the time.
type PlayerLatinNameSetPayload struct {
	From   string `json:"from"`
	Pinyin string `json:"pinyin"`
	To     string `json:"to"`
}

func (PlayerLatinNameSetPayload) Action() string { return "player.latin_name_set" }

// PlayerExternalIDSetPayload is player.external_id_set's payload: a
// player's id with another body set (to) or removed (to "").
type PlayerExternalIDSetPayload struct {
	From   string `json:"from"`
	Scheme string `json:"scheme"`
	To     string `json:"to"`
}

func (PlayerExternalIDSetPayload) Action() string { return "player.external_id_set" }

// PlayerAffiliationSetPayload is player.affiliation_set's payload: the
// player's club or school from a date ("" ends it), and the one it ended.
type PlayerAffiliationSetPayload struct {
	From string          `json:"from"`
	Kind AffiliationKind `json:"kind"`
	Name string          `json:"name"`
	Was  string          `json:"was"`
}

func (PlayerAffiliationSetPayload) Action() string { return "player.affiliation_set" }

// PlayerFamilyLinkedPayload is player.family_linked's payload.
type PlayerFamilyLinkedPayload struct {
	Other int64 `json:"other"`
}

func (PlayerFamilyLinkedPayload) Action() string { return "player.family_linked" }
