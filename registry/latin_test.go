package registry

import "testing"

func TestPinyinSurnameFirst(t *testing.T) {
	for name, want := range map[string]string{
		"张伟":            "Zhang Wei",
		"王小明":           "Wang Xiaoming",
		"欧阳修":           "Ouyang Xiu",
		"单雄信":           "Shan Xiongxin", // 单 is Shan as a surname
		"曾国藩":           "Zeng Guofan",
		"吕布":            "Lyu Bu",
		"诸葛亮":           "Zhuge Liang",
		"欧阳":            "Ou Yang", // two characters: surname and given name
		"买买提·艾力":        "Maimaiti Aili",
		"Chauvin Robin": "Chauvin Robin",
		" 李  昊 ":        "Li Hao",
	} {
		if got := Pinyin(name); got != want {
			t.Errorf("Pinyin(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLatinNameRules(t *testing.T) {
	for in, ok := range map[string]bool{"Zhang Wei": true, "Lü Bu": true, "O'Neil Sean": true, "Zhang": false, "张 伟": false, "Zhang 2D": false} {
		if _, err := ValidateLatinName(in); (err == nil) != ok {
			t.Errorf("ValidateLatinName(%q): %v, want ok=%v", in, err, ok)
		}
	}
	if got := (Player{Name: "张伟"}).LatinOf(); got != "Zhang Wei" {
		t.Errorf("default Latin name %q", got)
	}
	if got := (Player{Name: "张伟", LatinName: "Cheung Wai"}).LatinOf(); got != "Cheung Wai" {
		t.Errorf("stated Latin name %q", got)
	}
}

func TestExternalIDRules(t *testing.T) {
	cases := []struct {
		scheme, value string
		ok            bool
	}{{"egd", "14825052", true}, {"EGD", " 13513786 ", true}, {"egd", "1482x052", false}, {"egd", "12", false},
		{"ffg", "9912345", true}, {"aga", "ab cd", false}, {"e", "1", false}, {"egd", "", true}}
	for _, c := range cases {
		if _, _, err := ValidateExternalID(c.scheme, c.value); (err == nil) != c.ok {
			t.Errorf("ValidateExternalID(%q, %q): %v, want ok=%v", c.scheme, c.value, err, c.ok)
		}
	}
}

func TestProvinceInText(t *testing.T) {
	for text, want := range map[string]string{"北京棋院": "11", "Beijing": "11", "Shanghai Go Club": "31", "上海": "31",
		"陕西": "61", "Shaanxi": "61", "Shanxi": "14", "xxx": "", "": "", "北京天津联队": ""} {
		p, ok := ProvinceInText(text)
		if (want == "") == ok || (ok && p.Code != want) {
			t.Errorf("ProvinceInText(%q) = %v %v, want %q", text, p.Code, ok, want)
		}
	}
}
