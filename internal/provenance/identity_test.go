package provenance

import (
	"fmt"
	"os"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// identityEdits are entries and their later edited selves: the edits a
// person or a dream makes to one fact (a detail added or cut, a word
// changed, a date written out, a fix). Each must be recognised by word
// overlap alone.
var identityEdits = [][2]string{
	{"Gateway host is the Mac mini.", "The gateway host is now the Mac mini (mac-mini.lan)."},
	{"Sam prefers short answers by default.", "Sam prefers short answers by default; ask before anything irreversible."},
	{"Friday updates go to #reliability, drafted by Thursday evening.", "Friday updates go to #reliability, drafted by Thursday 18:00."},
	{"Aiko has a book deadline in 2027-02: no trips in January.", "Aiko has a children's book deadline in 2027-02: no trips in January."},
	{"Zigbee2MQTT must use the /dev/serial/by-id/ path for the dongle.", "Zigbee2MQTT must use the stable /dev/serial/by-id/ path for the SONOFF dongle."},
	{"Wei Zhang leads cutovers and writes Chinese in DMs.", "Wei Zhang (张伟) leads cutovers; writes Chinese in DMs."},
	{"Quiet hours are 22:00–08:00 Lisbon.", "Quiet hours are 22:00–08:00 Lisbon; only work P1s break through."},
	{"Restic backs up ~/.openclaw to nas-01 nightly at 03:30.", "Restic backs up ~/.openclaw from the Mac mini to nas-01 nightly at 03:30."},
	{"The staging deploy bot's token expires 2027-01-07.", "The staging deploy bot's new token expires 2027-01-07; reminder on 2026-12-28."},
	{"Kubernetes migration: 3/14 services done, target 2026-12-18.", "Kubernetes migration: 4/14 services done, target 2026-12-18."},
	{"Lena Vogt is the payments PM.", "Lena Vogt is the payments product manager."},
	{"Use long flags in kubectl examples in team docs.", "In team docs, kubectl examples use long flags."},
	{"Heartbeat every 30 min, 08:00–22:00 Lisbon.", "Heartbeat every 30 min between 08:00 and 22:00 Lisbon."},
	{"Summaries are bullets, five at most.", "Summaries are bullets, five at most, leading with what changed."},
	{"Marta has the spare key.", "Marta Sousa has the spare key."},
	{"Sam is tech lead of the Kubernetes migration until the last service moves.", "Sam stays tech lead of the Kubernetes migration until the last service moves."},
	{"Secrets live in 1Password, never in memory files.", "Secrets live in 1Password (\"Homelab\" vault), never in memory files or chat."},
	{"李娜负责数据质量检查。", "李娜负责每天的数据质量检查。"},
	{"Part 3 must come down to 1,000 words.", "Part 3 must come down to 1,000 words before publishing."},
	{"The on-call SRE decides whether to roll back.", "The on-call SRE, not Sam, decides whether to roll back."},
}

// identityDistinct are pairs of different facts about the same subject,
// written alike: matching them would move one claim's history to another.
var identityDistinct = [][2]string{
	{"Part 1 published 2026-09-29 (commit a3f9c21).", "Part 2 published 2026-10-28 (commit d4c07b2)."},
	{"Gateway host is the Mac mini.", "Gateway port is 18789, tailnet only."},
	{"payments-api cutover done on 2026-10-15 at 22:40.", "ledger-worker cutover done on 2026-11-03 at 23:05."},
	{"Marta has the spare key.", "Marta waters the plants on Saturday."},
	{"Priya Raman is Sam's manager until 2026-11-02.", "Tomás Ferreira is Sam's manager since 2026-11-02."},
	{"Quiet hours are 22:00–08:00 Lisbon.", "Heartbeat every 30 min, 08:00–22:00 Lisbon."},
	{"Aisle seat on any flight over five hours.", "Sam eats everything except natto."},
	{"The Mac mini starts up by itself after a power failure.", "The Mac mini stayed up through the power cut on 2026-11-09."},
	{"Hyper Backup on nas-01 runs nightly at 02:30.", "Restic backs up ~/.openclaw to nas-01 nightly at 03:30."},
	{"You may deploy the blog without asking.", "Ask before every blog deploy."},
	{"Argo CD must ignore /spec/replicas.", "Argo CD ApplicationSets with the git directory generator."},
	{"notifications done on 2026-11-18 at 21:38, 3/14.", "fx-rates done on 2026-11-20 at 21:31, 4/14."},
	{"Wei Zhang owns the Helm library chart.", "Tomás Ferreira owns alerting and runbooks."},
	{"The bucket policy must allow the GLACIER_IR storage class.", "Storage class moved to S3 Glacier Instant Retrieval."},
	{"Sam is learning the cello.", "Sam is learning Japanese."},
	{"Staging ingress is 192.0.2.40.", "Prod ingress is 203.0.113.17."},
	{"Michiko's birthday is 11-09.", "Aiko's book deadline is 2027-02."},
	{"Inês Carvalho joined Platform Reliability.", "Kofi Mensah joined Platform Reliability."},
	{"李娜负责数据质量检查。", "李娜下个月去上海出差。"},
	{"Rui recommends NUT for UPS shutdowns.", "Rui backs up to Backblaze B2."},
}

// TestIdentity_ThresholdSeparatesEditsFromOtherFacts justifies
// IdentityThreshold: every edit of a fact overlaps its earlier self by at
// least the threshold, every other fact about the same subject by less.
// The test prints the margin on both sides.
func TestIdentity_ThresholdSeparatesEditsFromOtherFacts(t *testing.T) {
	minEdit, maxOther := 1.0, 0.0
	for _, p := range identityEdits {
		j := analysis.Jaccard(analysis.WordSet(p[0]), analysis.WordSet(p[1]))
		minEdit = min(minEdit, j)
		if j < IdentityThreshold {
			t.Errorf("edit scores %.2f < %.2f: %q / %q", j, IdentityThreshold, p[0], p[1])
		}
	}
	for _, p := range identityDistinct {
		j := analysis.Jaccard(analysis.WordSet(p[0]), analysis.WordSet(p[1]))
		maxOther = max(maxOther, j)
		if j >= IdentityThreshold {
			t.Errorf("different facts score %.2f >= %.2f: %q / %q", j, IdentityThreshold, p[0], p[1])
		}
	}
	msg := fmt.Sprintf("identity: %d edits score >= %.2f, %d other facts <= %.2f; threshold %.2f",
		len(identityEdits), minEdit, len(identityDistinct), maxOther, IdentityThreshold)
	t.Log(msg)
	if os.Getenv("PROVENANCE_REPORT") != "" {
		fmt.Println(msg)
	}
}
