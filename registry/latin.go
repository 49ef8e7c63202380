package registry

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A player's Latin name is how foreign events and the EGD write him:
// surname first, as EGD files do ("Zhang Wei", "Ouyang Xiu"). By default
// it is the pinyin of his registered name (LatinOf); the agency may state
// another (Player.LatinName, logged), e.g. the spelling on his passport or
// the one the EGD already knows him by.

// pinyinOf maps each Han character of the generated table to its
// toneless syllable.
var pinyinOf = sync.OnceValue(func() map[rune]string {
	m := make(map[rune]string, 28000)
	for _, e := range pinyinTable {
		for _, c := range e.chars {
			m[c] = e.syllable
		}
	}
	return m
})

// surnameReadings are the readings of characters whose surname reading is
// not their most customary one (单 is dān in general, Shàn as a surname),
// and the compound surnames, which keep together before the given name.
var surnameReadings = map[string]string{
	"单": "shan", "曾": "zeng", "解": "xie", "仇": "qiu", "朴": "piao", "区": "ou", "查": "zha", "盖": "ge",
	"乐": "yue", "华": "hua", "任": "ren", "翟": "zhai", "覃": "qin", "缪": "miao", "万": "wan", "尉": "wei",
	"召": "shao", "种": "chong", "秘": "bi", "折": "she", "句": "gou", "隗": "wei", "重": "chong", "繁": "po",
	"员": "yun", "贲": "ben", "蕃": "pi", "冼": "xian", "莘": "shen", "祭": "zhai", "郇": "xun", "洗": "xian",
	"柏": "bai", "薄": "bo", "沈": "shen", "殷": "yin", "长": "chang", "那": "na", "阚": "kan", "都": "du",
	"欧阳": "ouyang", "司马": "sima", "诸葛": "zhuge", "上官": "shangguan", "东方": "dongfang", "皇甫": "huangfu",
	"慕容": "murong", "令狐": "linghu", "夏侯": "xiahou", "公孙": "gongsun", "尉迟": "yuchi", "长孙": "zhangsun",
	"宇文": "yuwen", "司徒": "situ", "端木": "duanmu", "独孤": "dugu", "南宫": "nangong", "呼延": "huyan",
	"轩辕": "xuanyuan", "澹台": "tantai", "万俟": "moqi", "闻人": "wenren", "赫连": "helian", "西门": "ximen",
	"太史": "taishi", "司空": "sikong", "钟离": "zhongli", "宗政": "zongzheng", "濮阳": "puyang", "单于": "chanyu",
	"申屠": "shentu", "百里": "baili", "东郭": "dongguo", "左丘": "zuoqiu", "第五": "diwu", "拓跋": "tuoba",
	"鲜于": "xianyu", "乐正": "yuezheng", "公羊": "gongyang", "漆雕": "qidiao", "羊舌": "yangshe", "梁丘": "liangqiu",
}

// syllables reads a run of text: each Han character as its syllable,
// any other run of characters as written.
func syllables(s string) (parts []string) {
	m := pinyinOf()
	var latin strings.Builder
	flush := func() {
		if latin.Len() > 0 {
			parts = append(parts, latin.String())
			latin.Reset()
		}
	}
	for _, c := range s {
		if py, ok := m[c]; ok {
			flush()
			parts = append(parts, py)
			continue
		}
		latin.WriteRune(c)
	}
	flush()
	return parts
}

// title writes a word with its first letter upper case, the rest as given.
func title(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// hasHan reports whether s holds a character of the pinyin table.
func hasHan(s string) bool {
	m := pinyinOf()
	for _, c := range s {
		if _, ok := m[c]; ok {
			return true
		}
	}
	return false
}

// Pinyin writes a Chinese personal name in Latin letters, surname first:
// 张伟 → "Zhang Wei", 欧阳修 → "Ouyang Xiu", 单雄信 → "Shan Xiongxin". The
// surname is the compound one when the name starts with one of them (and
// is three characters or more), else the first character. Names in the
// style of 买买提·艾力 keep their parts in order; a name without Han
// characters is returned trimmed, as written.
func Pinyin(name string) string {
	name = strings.TrimSpace(name)
	if !hasHan(name) {
		return strings.Join(strings.Fields(name), " ")
	}
	if strings.ContainsAny(name, "·•・.") {
		var parts []string
		for _, p := range strings.FieldsFunc(name, func(r rune) bool { return strings.ContainsRune("·•・. ", r) }) {
			parts = append(parts, title(strings.Join(syllables(p), "")))
		}
		return strings.Join(parts, " ")
	}
	rs := []rune(strings.Join(strings.Fields(name), ""))
	n := 1
	if len(rs) >= 3 {
		if _, ok := surnameReadings[string(rs[:2])]; ok {
			n = 2
		}
	}
	surname := surnameReadings[string(rs[:n])]
	if surname == "" {
		surname = strings.Join(syllables(string(rs[:n])), "")
	}
	given := strings.Join(syllables(string(rs[n:])), "")
	return strings.TrimSpace(title(surname) + " " + title(given))
}

// LatinOf is the player's Latin name: the one the agency stated, else the
// pinyin of his registered name.
func (p Player) LatinOf() string {
	if p.LatinName != "" {
		return p.LatinName
	}
	return Pinyin(p.Name)
}

// isoSubdivisions are the letters of ISO 3166-2:CN for each province code.
var isoSubdivisions = map[string]string{
	"11": "BJ", "12": "TJ", "13": "HE", "14": "SX", "15": "NM", "21": "LN", "22": "JL", "23": "HL", "31": "SH",
	"32": "JS", "33": "ZJ", "34": "AH", "35": "FJ", "36": "JX", "37": "SD", "41": "HA", "42": "HB", "43": "HN",
	"44": "GD", "45": "GX", "46": "HI", "50": "CQ", "51": "SC", "52": "GZ", "53": "YN", "54": "XZ", "61": "SN",
	"62": "GS", "63": "QH", "64": "NX", "65": "XJ", "71": "TW", "81": "HK", "82": "MO",
}

// ISOCode is the province's ISO 3166-2:CN subdivision letters ("BJ"), ""
// for the association: the short Latin code foreign files can carry.
func (p Province) ISOCode() string { return isoSubdivisions[p.Code] }

// shortNames are the names a file may give a province by: without the
// 省/市/自治区 suffix in Chinese, and in Latin letters.
func (p Province) shortNames() []string {
	zh := p.NameZH
	for _, suffix := range []string{"维吾尔自治区", "壮族自治区", "回族自治区", "特别行政区", "自治区", "省", "市"} {
		if s, ok := strings.CutSuffix(zh, suffix); ok {
			zh = s
			break
		}
	}
	return []string{p.NameZH, zh, strings.ToLower(p.NameEN), strings.ToLower(strings.ReplaceAll(p.NameEN, " ", ""))}
}

// ProvinceInText finds the province a file's club or region field names:
// "北京", "北京棋院", "Beijing", "Shanghai Go Club". ok is false when the
// text names none, or more than one (Shanxi inside Shaanxi is no answer).
func ProvinceInText(s string) (Province, bool) {
	s = strings.TrimSpace(s)
	for _, p := range provinces() { // the ISO letters written alone, as this registry's h-files write the club
		if c := p.ISOCode(); s == c || s == "CN-"+c {
			return p, true
		}
	}
	s = strings.ToLower(s)
	if s == "" {
		return Province{}, false
	}
	var found []Province
	for _, p := range provinces() {
		for _, n := range p.shortNames() {
			if len([]rune(n)) >= 2 && strings.Contains(s, n) {
				found = append(found, p)
				break
			}
		}
	}
	// two provinces named (a club of 北京 and 天津 players) say nothing
	if len(found) != 1 {
		return Province{}, false
	}
	return found[0], true
}

// LatinText writes any text in Latin letters for files that take no
// Chinese (an event's name or venue in an EGD file): each Han character as
// its syllable, capitalised and set apart by spaces (北京市围棋赛 → "Bei
// Jing Shi Wei Qi Sai"), anything else as written.
func LatinText(s string) string {
	m := pinyinOf()
	var b strings.Builder
	prevHan := false
	for _, c := range s {
		py, ok := m[c]
		switch {
		case ok:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
				b.WriteByte(' ')
			}
			b.WriteString(title(py))
		case c == '，' || c == '。' || c == '、':
			b.WriteString(", ")
		case c == '（' || c == '）' || c == '《' || c == '》' || c == '“' || c == '”':
			if prevHan || b.Len() > 0 {
				b.WriteByte(' ')
			}
		default:
			if prevHan && c != ' ' && !unicode.IsPunct(c) {
				b.WriteByte(' ')
			}
			b.WriteRune(c)
		}
		prevHan = ok
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
