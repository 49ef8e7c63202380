package web

// workspaceSectionMessages are the strings of the workspace's sections
// and its filter of applications.
func workspaceSectionMessages(l Lang) map[string]string {
	if l == English {
		return map[string]string{
			"ws_sections": "Sections", "ws_my_tournaments": "My tournaments", "ws_all": "All", "ws_from": "Applied from",
			"ws_to": "to", "ws_filter": "Filter", "ws_prev": "Previous page", "ws_next": "Next page", "ws_page": "Page",
		}
	}
	return map[string]string{
		"ws_sections": "栏目", "ws_my_tournaments": "我的比赛", "ws_all": "全部", "ws_from": "申请日期自",
		"ws_to": "至", "ws_filter": "筛选", "ws_prev": "上一页", "ws_next": "下一页", "ws_page": "页码",
	}
}
