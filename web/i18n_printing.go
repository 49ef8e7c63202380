package web

// printingMessages are the strings of the printable certificates.
func printingMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"print":              "Certificate to print",
			"print_help":         "Print this page from the browser (Ctrl+P): it is laid out on A4 landscape and prints the certificate alone. Or download it:",
			"print_pdf":          "PDF",
			"print_pdf_title":    "Amateur weiqi rank certificate",
			"print_title_dan":    "Amateur Weiqi Dan Certificate",
			"print_title_kyu":    "Amateur Weiqi Kyu Certificate",
			"print_statement":    "This certifies that {name} holds the amateur rank of {rank}, awarded by the {issuer}.",
			"print_scan":         "Scan to verify this certificate",
			"print_none":         "No certificate to print.",
			"print_font_missing": "The certificate font {path} is missing, so no PDF can be made. Install it (apt-get install fonts-droid-fallback) or set --cert-font to a TrueType font with Chinese glyphs.",
			"print_link":         "Print",
			"staff_member":       "Staff",
			"print_year":         "Certificates of a year to print (one PDF)",
			"print_year_button":  "Download PDF",
		}
	}
	return map[string]string{
		"print":              "打印证书",
		"print_help":         "请用浏览器打印本页（Ctrl+P）：版式为 A4 横向，只打印证书本身。也可下载：",
		"print_pdf":          "PDF 文件",
		"print_pdf_title":    "业余围棋段级位证书",
		"print_title_dan":    "业余围棋段位证书",
		"print_title_kyu":    "业余围棋级位证书",
		"print_statement":    "兹证明 {name} 获得{issuer}颁发的业余{rank}证书。",
		"print_scan":         "扫码核验本证书",
		"print_none":         "没有可打印的证书。",
		"print_font_missing": "缺少证书字体 {path}，无法生成 PDF。请安装（apt-get install fonts-droid-fallback），或用 --cert-font 指定含中文字形的 TrueType 字体。",
		"print_link":         "打印",
		"staff_member":       "工作人员",
		"print_year":         "打印某年度的全部证书（一个 PDF 文件）",
		"print_year_button":  "下载 PDF",
	}
}
