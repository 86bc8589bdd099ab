package dream

import (
	"strings"
	"testing"
)

// The line shapes that are no fact, in the languages agents log in.
func TestNoiseOf_LineShapes(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"- user: can you check the weather for Porto next week?", "transcript"},
		{"- 21:30 heartbeat: all green.", "heartbeat"},
		{"- Should we move the dentist check-up earlier?", "question"},
		{"- 限流这个问题可以关了吗？", "question"},
		{"- [cron] 02:00 ERP 备份完成 ✅ 大小 18.2 GB，耗时 388s", "[tag]"},
		{"- [train] run-041 epoch 10/30: loss 0.512, dev WER 14.8%", "[tag]"},
		{"- Commit: 50e70b0", "label and one value"},
		{"- Topic: nightly", "label and one value"},
		{`- File: C:\Users\marco\AppData\Roaming\openclaw\logs\gateway-2026-04-01.log`, "label and one value"},
		{`- 周报已发：File: C:\Users\zhou\Documents\周报\2026-03-06.xlsx`, "label and one value"},
		{"- /Users/jb/.openclaw/workspace/logs/collector_20260304.log", "path, hash or link"},
		{"- Commit: 5e1c0a9 feat(invoices): recurring schedule model", "commit"},
		{"- Messages: 0 user, 23 assistant", "status or counter"},
		{"- Disk C: 62% used, D: 40% used", "status or counter"},
		{"- Gateway: running (pid 4104), uptime 63h", "status or counter"},
		{"- Tests: 142 passed, 0 failed (Vitest, 11.2 s)", "status or counter"},
		{"- Correo: 11 nuevos, 0 urgentes.", "status or counter"},
		{"- Obras Lima quote revision: cabinets €7,400, worktop €2,100, labour €6,900.", "status or counter"},
		{"- | 06:00 | 备份 | 正常 |", "table row"},
		{"- confidence: 0.62 status: staged", "metadata"},
		// Facts, whatever their numbers and names.
		{"- Decided with Priya: the renovation budget is capped at €19,500 including a 5% contingency.", ""},
		{"- ERP 服务器主机名 ERP-SRV01，内网 IP 192.168.10.21，远程桌面端口改成了 53389。", ""},
		{"- Reminder: nas-01 at 10.0.0.20 is the Synology NAS; it backs up nightly to S3.", ""},
		{"- Marco: if newton is down for more than 10 minutes, call him even at night.", ""},
	} {
		first := strings.TrimPrefix(c.raw, "- ")
		got := noiseOf(readLine(c.raw, first, ""))
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: %q, want one saying %q", c.raw, got, c.want)
		}
	}
}

func TestIsTodo(t *testing.T) {
	for raw, want := range map[string]bool{
		"- [ ] pick up the dry cleaning":                                           true,
		"- TODO: ask Rui whether the electrician can come":                         true,
		"- TODO(noor): decide whether weekly schedules are in scope.":              true,
		"- Next: re-run the backtest":                                              true,
		"- 下一步：联系店小秘客服确认接口限流规则。":                                                   true,
		"- やること：関連研究の表を更新":                                                         true,
		"- 次：run-041 の結果を表にまとめる":                                                   true,
		"- Pendiente: pedir a Marta el glosario del proyecto nuevo.":               true,
		"- Remind Priya to call the insurer about the claim.":                      true,
		"- Reminder: the backup rule stays as decided.":                            true,
		"- Lucía prefiere que los recordatorios de pago se manden el día después.": false,
		"- Priya asked for a reminder on 2026-03-11 to clear the guest room.":      false,
		"- Next week the cutover starts.":                                          false,
	} {
		if got := isTodo(raw); got != want {
			t.Errorf("isTodo(%q) = %v, want %v", raw, got, want)
		}
	}
}

// The forms a durable statement takes, one or two per kind and language;
// and lines that look alike but state nothing lasting.
func TestMarkerOf_DurableStatements(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Decided with Noor: all API input is validated with Zod schemas.", "decision"},
		{"决定：仓库打印机统一换成斑马 ZD421。", "decision"},
		{"中川さんがアノテーションを手伝ってくれることになった。", "decision"},
		{"관심 업종에 2차전지 소재를 추가하기로 함.", "decision"},
		{"Decisión: Lucía deja Trados y pasa a memoQ.", "decision"},
		{"Noor prefers small PRs: under 400 changed lines.", "preference"},
		{"老周偏好：周报里的数字一律保留整数。", "preference"},
		{"주인님이 월간 보고는 매달 1일 09:00에 받고 싶다고 함.", "preference"},
		{"Rule from Priya: never post in the #harbor channel on her behalf.", "rule"},
		{"Priya wants code snippets in TypeScript, not JavaScript.", "preference"},
		{"The dongle needs the by-id path, not /dev/ttyUSB0.", "rule"},
		{"老周说以后周报在周五 17:00 前发到企业微信群。", "rule"},
		{"実験結果は必ず seed を 3 つ回して報告すること。", "rule"},
		{"보고서는 표보다 bullet 3줄 요약을 먼저 보여줄 것.", "rule"},
		{"The right expression for the last day of the month is `x`.", "correction"},
		{"Gateway host is now the Mac mini.", "change"},
		{"远程桌面端口改成了 53389。", "change"},
		{"Priya's partner is Tomás; he handles the car.", "role"},
		{"林姐的女儿朵朵下周五生日。", "role"},
		{"Priya is learning Portuguese with a tutor on Saturdays at 10:00.", "schedule"},
		{"모의투자 계좌 번호는 텔레그램 고정 메시지에 있음.", "location"},
		{"El glosario de Hotel Albufera está en `~/glosarios/albufera.tbx`.", "location"},
		{"Harbor v2.1 shipped at 11:20.", "milestone"},
		// Nothing lasting.
		{"Rui called about the floor plan; nothing changes.", ""},
		{"Watched the match; Priya doesn't follow football, her partner does.", ""},
		{"Priya said she liked the short format of this morning's brief.", ""},
		{"这件事还不确定。", ""},
		{"林姐预定了一个蛋糕。", ""},
		{"Drafted the reply to the agency; Priya will send it herself.", ""},
	} {
		if got, _ := markerOf(c.text); got != c.want {
			t.Errorf("markerOf(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
