package tournaments

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// decodeText turns a text file into UTF-8. With enc "" it detects: a BOM,
// valid UTF-8, GBK (Chinese h-files), else Windows-1252 (the Latin-1 of
// European h-files); any other encoding can be chosen by name ("gbk",
// "windows-1251", "latin1" …). It returns the name of the encoding used.
func decodeText(b []byte, enc string) (string, string, error) {
	if enc != "" {
		e, name, err := encodingByName(enc)
		if err != nil {
			return "", "", err
		}
		if e == nil {
			if !utf8.Valid(bytes.TrimPrefix(b, bom)) {
				return "", "", wholeFile("", 1, ReasonFileEncoding, "encoding", name)
			}
			return string(bytes.TrimPrefix(b, bom)), name, nil
		}
		out, err := e.NewDecoder().Bytes(b)
		if err != nil {
			return "", "", wholeFile("", 1, ReasonFileEncoding, "encoding", name)
		}
		return strings.TrimPrefix(string(out), "\ufeff"), name, nil
	}
	switch {
	case bytes.HasPrefix(b, bom):
		if utf8.Valid(b[3:]) {
			return string(b[3:]), "UTF-8 (BOM)", nil
		}
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}), bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		out, err := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Bytes(b)
		if err != nil {
			return "", "", wholeFile("", 1, ReasonFileEncoding, "encoding", "UTF-16")
		}
		return string(out), "UTF-16", nil
	case utf8.Valid(b):
		return string(b), "UTF-8", nil
	}
	var e encoding.Encoding = charmap.Windows1252
	name := "Windows-1252"
	if looksGBK(b) {
		e, name = simplifiedchinese.GB18030, "GBK"
	}
	out, err := e.NewDecoder().Bytes(b)
	if err != nil {
		return "", "", wholeFile("", 1, ReasonFileEncoding, "encoding", name)
	}
	return string(out), name, nil
}

var bom = []byte("\xef\xbb\xbf")

// looksGBK: in GBK text nearly every byte above 0x7F is half of a pair of
// such bytes (GB2312 puts both in A1–FE); Latin-1 accents stand alone
// between ASCII letters.
func looksGBK(b []byte) bool {
	high, paired := 0, 0
	for i := 0; i < len(b); i++ {
		if b[i] < 0x80 {
			continue
		}
		high++
		if b[i] >= 0x81 && b[i] <= 0xfe && i+1 < len(b) && b[i+1] >= 0xa1 && b[i+1] <= 0xfe {
			high++
			paired += 2
			i++
		}
	}
	return high > 0 && paired*10 >= high*9
}

// encodingByName finds an encoding by its usual names; nil means UTF-8.
func encodingByName(name string) (encoding.Encoding, string, error) {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
	case "utf-8", "utf8":
		return nil, "UTF-8", nil
	case "latin1", "latin-1", "iso-8859-1", "windows-1252", "cp1252":
		return charmap.Windows1252, "Windows-1252", nil
	case "gbk", "gb2312", "gb18030", "cp936":
		return simplifiedchinese.GB18030, "GBK", nil
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		return nil, "", wholeFile("", 1, ReasonFileEncodingUnknown, "encoding", name)
	}
	canon, _ := htmlindex.Name(e)
	if canon == "utf-8" {
		return nil, "UTF-8", nil
	}
	return e, canon, nil
}
