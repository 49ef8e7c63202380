package certs

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
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

// The refusals of a seal, worded for whoever checks a paper.
var (
	ReasonSealNotASeal = ledger.NewReason(ledger.Invalid, "SEAL_NOT_A_SEAL",
		"二维码内容不是本系统的证书签名数据：应为链接后接 # 和以 DKC1. 开头的数据。",
		"the QR code's content is not a certificate seal of this registry: want a link, '#', then data beginning DKC1.")
	ReasonSealTooLong = ledger.NewReason(ledger.Invalid, "SEAL_TOO_LONG",
		"二维码内容有 {length} 个字符，超过证书签名数据的上限 {max}。", "the QR code's content has {length} characters, more than a seal's {max}.")
	ReasonSealEncoding = ledger.NewReason(ledger.Invalid, "SEAL_ENCODING",
		"证书签名数据不是有效的 base64url 编码，或长度不足。", "the seal is not valid base64url, or too short to hold a signature.")
	ReasonSealVersion = ledger.NewReason(ledger.Invalid, "SEAL_VERSION",
		"证书签名数据的格式版本为 {version}，本工具只识别版本 1。", "the seal is of format version {version}; this tool reads version 1.")
	ReasonSealField = ledger.NewReason(ledger.Invalid, "SEAL_FIELD",
		"证书签名数据中的{field}无法读取。", "the seal's {field} cannot be read.")
	ReasonSealTrailing = ledger.NewReason(ledger.Invalid, "SEAL_TRAILING",
		"证书签名数据的字段之后多出 {bytes} 个字节。", "the seal has {bytes} bytes after its fields.")
	ReasonSealKey = ledger.NewReason(ledger.Invalid, "SEAL_KEY",
		"证书签名所用的密钥（{hash}）不是所给的核验公钥（{key}）：可能是另一个系统的，或密钥已轮换。",
		"the seal was signed by key {hash}, not by the verifier key given ({key}): another registry's, or a key since rotated.")
	ReasonSealVerifierKey = ledger.NewReason(ledger.Invalid, "SEAL_VERIFIER_KEY",
		"所给的核验公钥无法读取，请使用 /log/key 提供的公钥。", "the verifier key given cannot be read; use the key /log/key serves.")
	ReasonSealSignature = ledger.NewReason(ledger.Invalid, "SEAL_SIGNATURE",
		"证书签名与内容不符：证书内容可能被改动，或并非由本系统签发。",
		"the seal's signature does not match its content: it was altered, or never signed by this registry.")
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
		return SignedSeal{}, ReasonSealTooLong.New("length", strconv.Itoa(len(text)), "max", strconv.Itoa(maxSealText))
	}
	if i := strings.LastIndexByte(text, '#'); i >= 0 {
		text = text[i+1:]
	}
	enc, ok := strings.CutPrefix(text, sealTag)
	if !ok {
		return SignedSeal{}, ReasonSealNotASeal.New()
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(raw) < 1+sealKeyHash+sealSigSize {
		return SignedSeal{}, ReasonSealEncoding.New()
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
		return Seal{}, ReasonSealVersion.New("version", strconv.Itoa(int(b[0])))
	}
	b = b[1:]
	bad := func(zh, en string) (Seal, error) {
		return Seal{}, ReasonSealField.With(ledger.Words("field", zh, en))
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
		return bad("证书编号", "number")
	}
	if s.Holder, ok = str(maxSealHolder); !ok {
		return bad("持证人姓名", "holder")
	}
	rank, k := binary.Varint(b)
	if k <= 0 || rank < int64(registry.LowestKyu) || rank > int64(registry.HighestDan)+2 {
		return bad("段级位", "rank")
	}
	b, s.Rank = b[k:], registry.Rank(rank)
	basis, ok := str(maxSealBasis)
	if !ok {
		return bad("依据", "basis")
	}
	s.Basis = Basis(basis)
	days, k := binary.Uvarint(b)
	if k <= 0 || days > 200_000 {
		return bad("发证日期", "issue date")
	}
	b = b[k:]
	s.IssueDate = time.Unix(0, 0).UTC().Add(time.Duration(days) * sealDaysToDate)
	idx, k := binary.Uvarint(b)
	if k <= 0 || idx > 1<<62 {
		return bad("日志序号", "log index")
	}
	b, s.LogIndex = b[k:], int64(idx)
	if len(b) != 0 {
		return Seal{}, ReasonSealTrailing.New("bytes", strconv.Itoa(len(b)))
	}
	return s, nil
}

// Check verifies the seal's signature with the log's verifier key text.
func (s SignedSeal) Check(vkey string) error {
	err := ledger.VerifyStatement(vkey, SealPurpose, s.Body, s.Signature)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ledger.ErrStatementKey):
		return ReasonSealKey.New("hash", fmt.Sprintf("%08x", s.Signature.KeyHash), "key", keyLabel(vkey))
	case errors.Is(err, ledger.ErrStatementSignature):
		return ReasonSealSignature.New()
	}
	return ReasonSealVerifierKey.New()
}

// keyLabel is a verifier key's name, without its key material.
func keyLabel(vkey string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(vkey), "+")
	return ledger.Echo(name)
}
