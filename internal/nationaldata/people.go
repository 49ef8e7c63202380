package nationaldata

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/dankyu/dankyu/registry"
)

// provincePopulation is each province's population in millions (2020
// census, rounded): agencies' sizes follow it.
func provincePopulation() map[string]float64 {
	return map[string]float64{
		"110": 21.9, "120": 13.9, "130": 74.6, "140": 34.9, "150": 24.0, "210": 42.6, "220": 24.1, "230": 31.9,
		"310": 24.9, "320": 84.7, "330": 64.6, "340": 61.0, "350": 41.5, "360": 45.2, "370": 101.5, "410": 99.4,
		"420": 57.8, "430": 66.4, "440": 126.0, "450": 50.1, "460": 10.1, "500": 32.1, "510": 83.7, "520": 38.6,
		"530": 47.2, "540": 3.6, "610": 39.5, "620": 25.0, "630": 5.9, "640": 7.2, "650": 25.9, "710": 23.6,
		"810": 7.5, "820": 0.7,
	}
}

func surnames() []string {
	return strings.Fields("王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗 郑 梁 谢 宋 唐 许 韩 冯 邓 曹 彭 曾 肖 田 董 袁 潘 于 蒋 蔡 余 杜 叶 程 苏 魏 吕 丁 任 沈 姚 卢 姜 崔 钟 谭 陆 汪 范 金 石 廖 贾 夏 韦 付 方 白 邹 孟 熊 秦 邱 江 尹 薛 闫 段 雷 侯 龙 史 陶 黎 贺 顾 毛 郝 龚 邵 万 钱 严 覃 武 戴 莫 孔 向 汤")
}

func givenChars() []string {
	return strings.Fields("伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀 霞 平 刚 桂 英 华 玉 萍 红 鹏 飞 宇 浩 然 子 轩 梓 涵 一 诺 欣 怡 博 文 思 雨 泽 嘉 俊 晨 宁 阳 佳 琪 睿 昊 天 航 硕 铭 瑞 凯 辰 弈 棋 远 志 安 乐 清 源 慧 婷 雪 晶 颖 悦")
}

func chineseName(r *rand.Rand) string {
	s, g := surnames(), givenChars()
	name := s[r.IntN(len(s))] + g[r.IntN(len(g))]
	if r.IntN(3) > 0 {
		name += g[r.IntN(len(g))]
	}
	return name
}

// residentID builds a valid 18-character resident ID of the province with
// the birth date; n (unique within the province) picks the region's last
// four digits and the sequence number.
func residentID(prefix string, birth time.Time, n int) string {
	first := fmt.Sprintf("%s%04d%s%03d", prefix[:2], 1000+n/1000, birth.Format("20060102"), n%1000)
	return first + string(registry.ResidentIDCheck(first))
}
