// Package registry holds the provinces, their first-level agencies, the
// registered players, the API tokens that identify who acts, and the
// append-only event log every change is written to.
package registry

import "slices"

// Province is a province-level division with its GB/T 2260 code. Its
// certificate prefix is the first three digits of its residents' ID numbers.
type Province struct {
	Code   string // two digits, e.g. "11"
	Prefix string // three digits, e.g. "110"
	NameZH string
	NameEN string
}

// AssociationPrefix is the certificate prefix of the association itself.
const AssociationPrefix = "000"

// provinces lists the 34 province-level divisions in GB/T 2260 order, then
// the association. It is a function so no caller can change the table.
func provinces() []Province {
	return []Province{
		{"11", "110", "北京市", "Beijing"},
		{"12", "120", "天津市", "Tianjin"},
		{"13", "130", "河北省", "Hebei"},
		{"14", "140", "山西省", "Shanxi"},
		{"15", "150", "内蒙古自治区", "Inner Mongolia"},
		{"21", "210", "辽宁省", "Liaoning"},
		{"22", "220", "吉林省", "Jilin"},
		{"23", "230", "黑龙江省", "Heilongjiang"},
		{"31", "310", "上海市", "Shanghai"},
		{"32", "320", "江苏省", "Jiangsu"},
		{"33", "330", "浙江省", "Zhejiang"},
		{"34", "340", "安徽省", "Anhui"},
		{"35", "350", "福建省", "Fujian"},
		{"36", "360", "江西省", "Jiangxi"},
		{"37", "370", "山东省", "Shandong"},
		{"41", "410", "河南省", "Henan"},
		{"42", "420", "湖北省", "Hubei"},
		{"43", "430", "湖南省", "Hunan"},
		{"44", "440", "广东省", "Guangdong"},
		{"45", "450", "广西壮族自治区", "Guangxi"},
		{"46", "460", "海南省", "Hainan"},
		{"50", "500", "重庆市", "Chongqing"},
		{"51", "510", "四川省", "Sichuan"},
		{"52", "520", "贵州省", "Guizhou"},
		{"53", "530", "云南省", "Yunnan"},
		{"54", "540", "西藏自治区", "Tibet"},
		{"61", "610", "陕西省", "Shaanxi"},
		{"62", "620", "甘肃省", "Gansu"},
		{"63", "630", "青海省", "Qinghai"},
		{"64", "640", "宁夏回族自治区", "Ningxia"},
		{"65", "650", "新疆维吾尔自治区", "Xinjiang"},
		{"71", "710", "台湾省", "Taiwan"},
		{"81", "810", "香港特别行政区", "Hong Kong"},
		{"82", "820", "澳门特别行政区", "Macao"},
	}
}

// Provinces returns the 34 province-level divisions followed by the association.
func Provinces() []Province {
	return append(provinces(), Province{"00", AssociationPrefix, "中国围棋协会", "Chinese Weiqi Association"})
}

// provinceTable and prefixTable are provinces and Provinces, built once
// for the lookups (every verification names its certificate's province);
// never changed.
var provinceTable, prefixTable = provinces(), Provinces()

// ProvinceByCode finds a province by its two-digit code (not the association).
func ProvinceByCode(code string) (Province, bool) {
	ps := provinceTable
	i := slices.IndexFunc(ps, func(p Province) bool { return p.Code == code })
	if i < 0 {
		return Province{}, false
	}
	return ps[i], true
}

// ProvinceByPrefix finds a province, or the association, by its three-digit prefix.
func ProvinceByPrefix(prefix string) (Province, bool) {
	ps := prefixTable
	i := slices.IndexFunc(ps, func(p Province) bool { return p.Prefix == prefix })
	if i < 0 {
		return Province{}, false
	}
	return ps[i], true
}
