package web

// auditMessages are the strings of the annual audit (年审): the labels of the
// fields its refusals name, and its pages.
func auditMessages(l Lang) map[string]string {
	zh := map[string]string{
		"field_key": "指标", "field_category": "问题类别", "field_severity": "严重程度", "field_indicator": "指标",
		"field_reply": "答复", "field_measures": "监管措施", "field_outcome": "年审结论", "field_dan_cap": "段位证书上限",
		"field_kyu_cap": "级位证书上限", "field_supervision_until": "监管期限", "field_note": "备注",
	}
	en := map[string]string{
		"field_key": "Indicator", "field_category": "Category", "field_severity": "Severity", "field_indicator": "Indicator",
		"field_reply": "Reply", "field_measures": "Measures", "field_outcome": "Ruling", "field_dan_cap": "Dan stock cap",
		"field_kyu_cap": "Kyu stock cap", "field_supervision_until": "Supervised until", "field_note": "Note",
	}
	if l == English {
		return en
	}
	return zh
}
