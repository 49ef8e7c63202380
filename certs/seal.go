package certs

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// A seal is what a printed certificate's QR code carries besides its
// link: the certificate's public facts, signed with the event log's key,
// so that anyone holding the log's verifier key (/log/key) checks the
// paper offline. Format version 1 (docs/certificates.md, "The QR code"):
//
//	text    = "DKC1." base64url-without-padding(body || keyhash || sig)
//	body    = 0x01 number holder rank basis date index
//	number  = str (the certificate number, ASCII)
//	holder  = str (the holder's name as printed, UTF-8)
//	rank    = signed varint (registry.Rank: 1 = 1 dan, -1 = 1 kyu)
//	basis   = str (tournament, appraisal, national_result, …)
//	date    = uvarint (issue date, days since 1970-01-01, Beijing date)
//	index   = uvarint (the log index of the issuance event)
//	str     = uvarint length, then the bytes
//	keyhash = 4 bytes, big-endian: the note key hash of the signing key
//	sig     = 64 bytes: Ed25519 over the statement of SealPurpose and body
//	          (ledger.SignStatement)
//
// In the printed QR code the text follows a '#' after the link, so a
// phone opens the link (the online status) and never sends the seal.
type Seal struct {
	Number    string
	Holder    string
	Rank      registry.Rank
	Basis     Basis
	IssueDate time.Time // a date, UTC midnight
	LogIndex  int64     // leaf index of the issuance event in the log's tree
}

// SealPurpose is the purpose line the log's key signs a seal's body under.
const SealPurpose = "certificate-qr/v1"

// sealTag begins a seal's text: format version 1.
const sealTag = "DKC1."

const (
	sealVersion    = 1
	sealSigSize    = 64
	sealKeyHash    = 4
	maxSealNumber  = 16
	maxSealHolder  = 128
	maxSealBasis   = 32
	maxSealText    = 512 // far above any real seal's ~150 characters
	sealDaysToDate = 24 * time.Hour
)

// Seal and parse errors are worded for whoever checks a paper.
var (
	ReasonSealMalformed = ledger.NewReason(ledger.Invalid, "SEAL_MALFORMED",
		"二维码内容不是本系统的证书签名数据：{detail}。", "the QR code's content is not a certificate seal of this registry: {detail}.")
	ReasonSealSignature = ledger.NewReason(ledger.Invalid, "SEAL_SIGNATURE",
		"证书签名核验未通过：{detail}。该证书内容可能被改动，或并非由本系统签发。",
		"the certificate's signature does not check: {detail}. Its content may have been altered, or it was not signed by this registry.")
)

// SealOf is the seal of certificate c, whose issuance is event logIndex+1.
func SealOf(c Certificate, logIndex int64) Seal {
	d := c.IssueDate
	return Seal{Number: c.Number, Holder: c.PlayerName, Rank: c.Rank, Basis: c.Basis,
		IssueDate: time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC), LogIndex: logIndex}
}

// Body is the seal's signed bytes.
func (s Seal) Body() []byte {
	b := []byte{sealVersion}
	str := func(v string) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	str(s.Number)
	str(s.Holder)
	b = binary.AppendVarint(b, int64(s.Rank))
	str(string(s.Basis))
	days := s.IssueDate.Sub(time.Unix(0, 0).UTC()) / sealDaysToDate
	b = binary.AppendUvarint(b, uint64(max(days, 0)))
	b = binary.AppendUvarint(b, uint64(max(s.LogIndex, 0)))
	return b
}

// SealText is the seal's body with its signature, as the QR code carries it.
func SealText(body []byte, sig ledger.StatementSignature) string {
	raw := append([]byte(nil), body...)
	raw = binary.BigEndian.AppendUint32(raw, sig.KeyHash)
	raw = append(raw, sig.Sig...)
	return sealTag + base64.RawURLEncoding.EncodeToString(raw)
}

// SignedSeal is a seal read from a QR code: its facts, the bytes signed
// and the signature, not yet checked (Check).
type SignedSeal struct {
	Seal
	Body      []byte
	Signature ledger.StatementSignature
}

// ParseSeal reads a seal from a QR code's text: the seal alone
// ("DKC1.…") or the whole printed text, a link followed by '#' and the
// seal. It checks the form only; Check checks the signature.
func ParseSeal(text string) (SignedSeal, error) {
	text = strings.TrimSpace(text)
	if len(text) > maxSealText {
		return SignedSeal{}, sealMalformed(fmt.Sprintf("%d characters, more than a seal's %d", len(text), maxSealText),
			fmt.Sprintf("%d 个字符，超过 %d", len(text), maxSealText))
	}
	if i := strings.LastIndexByte(text, '#'); i >= 0 {
		text = text[i+1:]
	}
	enc, ok := strings.CutPrefix(text, sealTag)
	if !ok {
		return SignedSeal{}, sealMalformed("it does not begin with "+sealTag, "不以 "+sealTag+" 开头")
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return SignedSeal{}, sealMalformed("not base64url", "不是 base64url 编码")
	}
	if len(raw) < 1+sealKeyHash+sealSigSize {
		return SignedSeal{}, sealMalformed("too short", "长度不足")
	}
	body := raw[:len(raw)-sealKeyHash-sealSigSize]
	tail := raw[len(body):]
	s, err := parseSealBody(body)
	if err != nil {
		return SignedSeal{}, err
	}
	return SignedSeal{Seal: s, Body: body, Signature: ledger.StatementSignature{
		KeyHash: binary.BigEndian.Uint32(tail[:sealKeyHash]), Sig: append([]byte(nil), tail[sealKeyHash:]...)}}, nil
}

// parseSealBody reads the fields of a version 1 body; every byte must be
// read.
func parseSealBody(b []byte) (Seal, error) {
	if b[0] != sealVersion {
		return Seal{}, sealMalformed(fmt.Sprintf("format version %d, not 1", b[0]), fmt.Sprintf("格式版本为 %d，不是 1", b[0]))
	}
	b = b[1:]
	bad := func(field string) (Seal, error) {
		return Seal{}, sealMalformed("its "+field+" cannot be read", "无法读取其中的 "+field)
	}
	str := func(limit int) (string, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(limit) || n > uint64(len(b)-k) {
			return "", false
		}
		v := string(b[k : k+int(n)])
		b = b[k+int(n):]
		return v, utf8.ValidString(v)
	}
	var s Seal
	var ok bool
	if s.Number, ok = str(maxSealNumber); !ok {
		return bad("number")
	}
	if s.Holder, ok = str(maxSealHolder); !ok {
		return bad("holder")
	}
	rank, k := binary.Varint(b)
	if k <= 0 || rank < int64(registry.LowestKyu) || rank > int64(registry.HighestDan)+2 {
		return bad("rank")
	}
	b, s.Rank = b[k:], registry.Rank(rank)
	basis, ok := str(maxSealBasis)
	if !ok {
		return bad("basis")
	}
	s.Basis = Basis(basis)
	days, k := binary.Uvarint(b)
	if k <= 0 || days > 200_000 {
		return bad("issue date")
	}
	b = b[k:]
	s.IssueDate = time.Unix(0, 0).UTC().Add(time.Duration(days) * sealDaysToDate)
	idx, k := binary.Uvarint(b)
	if k <= 0 || idx > 1<<62 {
		return bad("log index")
	}
	b, s.LogIndex = b[k:], int64(idx)
	if len(b) != 0 {
		return Seal{}, sealMalformed(fmt.Sprintf("%d bytes after its fields", len(b)), fmt.Sprintf("字段之后多出 %d 个字节", len(b)))
	}
	return s, nil
}

// Check verifies the seal's signature with the log's verifier key text.
func (s SignedSeal) Check(vkey string) error {
	if err := ledger.VerifyStatement(vkey, SealPurpose, s.Body, s.Signature); err != nil {
		return ReasonSealSignature.With(ledger.Words("detail", sealSignatureZH(err), err.Error()))
	}
	return nil
}

func sealSignatureZH(err error) string {
	switch {
	case errors.Is(err, ledger.ErrStatementKey):
		return "签名所用的密钥不是所给的核验公钥"
	case errors.Is(err, ledger.ErrStatementSignature):
		return "签名与内容不符"
	}
	return "核验公钥无法读取"
}

func sealMalformed(en, zh string) error {
	return ReasonSealMalformed.With(ledger.Words("detail", zh, en))
}
