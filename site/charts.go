package site

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"
	"time"
)

// Charts are SVG made at build time: no script draws them, they print,
// and each carries its numbers as a table for screen readers and for
// anyone who wants the figures.

// bar is one bar of a chart.
type bar struct {
	Label string
	Value int
	// Class colours the bar ("fill-hot"); "" uses the accent.
	Class string
	// URL makes the bar's row a link (to the search for what it counts).
	URL string
}

// barChart draws horizontal bars, one row each, scaled to the largest.
func barChart(id, title string, bars []bar) template.HTML {
	const rowH, labelW, width = 30, 128, 340
	maxV := 1
	for _, b := range bars {
		maxV = max(maxV, b.Value)
	}
	h := rowH*len(bars) + 4
	// A picture's parts are hidden from assistive technology: a chart
	// whose rows are links is a group of them instead.
	role := "img"
	if slices.ContainsFunc(bars, func(x bar) bool { return x.URL != "" }) {
		role = "group"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="%s" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, width, h, role, id, id, esc(title))
	for i, x := range bars {
		y := i*rowH + 2
		w := float64(width-labelW-44) * float64(x.Value) / float64(maxV)
		class := "bar"
		if x.Class != "" {
			class = "bar " + x.Class
		}
		if x.URL != "" {
			// The row (label, bar and number) is one link to the list it
			// counts, named by a title: an aria-label would not hold the
			// row's visible text as it is read ("warm27").
			fmt.Fprintf(&b, `<a href="%s"><title>%s</title>`, esc(x.URL), esc(fmt.Sprintf("%s: %d", x.Label, x.Value)))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, labelW-8, y+19, esc(x.Label))
		fmt.Fprintf(&b, `<rect class="track" x="%d" y="%d" width="%d" height="16" rx="3"/>`, labelW, y+6, width-labelW-44)
		if x.Value > 0 {
			fmt.Fprintf(&b, `<rect class="%s" x="%d" y="%d" width="%.1f" height="16" rx="3"/>`, class, labelW, y+6, math.Max(w, 2))
		}
		fmt.Fprintf(&b, `<text class="value" x="%d" y="%d">%d</text>`, width-38, y+19, x.Value)
		if x.URL != "" {
			b.WriteString(`</a>`)
		}
	}
	b.WriteString(`</svg>`)
	rows := make([][2]string, len(bars))
	for i, x := range bars {
		rows[i] = [2]string{x.Label, fmt.Sprint(x.Value)}
	}
	b.WriteString(dataTable(title, rows))
	return template.HTML(b.String()) //nolint:gosec // escaped above
}

// histogram draws vertical bars over labelled buckets.
func histogram(id, title string, labels []string, values []int, class string) template.HTML {
	const width, height, base = 340, 175, 140
	maxV := 1
	for _, v := range values {
		maxV = max(maxV, v)
	}
	n := len(values)
	gap := 4.0
	bw := (float64(width) - gap*float64(n+1)) / float64(n)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, width, height, id, id, esc(title))
	fmt.Fprintf(&b, `<line class="axis" x1="0" x2="%d" y1="%d" y2="%d"/>`, width, base, base)
	for i, v := range values {
		x := gap + float64(i)*(bw+gap)
		hgt := float64(base-16) * float64(v) / float64(maxV)
		if v > 0 {
			fmt.Fprintf(&b, `<rect class="bar %s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="2"/>`, class, x, float64(base)-hgt, bw, hgt)
			fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, x+bw/2, float64(base)-hgt-5, v)
		}
		if i%2 == 0 || n <= 6 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, x+bw/2, base+20, esc(labels[i]))
		}
	}
	b.WriteString(`</svg>`)
	rows := make([][2]string, n)
	for i := range values {
		rows[i] = [2]string{labels[i], fmt.Sprint(values[i])}
	}
	b.WriteString(dataTable(title, rows))
	return template.HTML(b.String()) //nolint:gosec // escaped above
}

// gauge draws a half-circle gauge of value against limit, with a tick at
// target. Under target it is green, up to limit amber, over it red.
func gauge(id, title string, value, target, limit int, unit string) template.HTML {
	const cx, cy, r = 170, 130, 100
	frac := 0.0
	if limit > 0 {
		frac = math.Min(float64(value)/float64(limit), 1)
	}
	class := "fill-ok"
	switch {
	case value > limit:
		class = "fill-danger"
	case target > 0 && value > target:
		class = "fill-warm"
	}
	point := func(f float64, rad float64) (float64, float64) {
		a := math.Pi * (1 - f)
		return cx + rad*math.Cos(a), cy - rad*math.Sin(a)
	}
	arc := func(f0, f1 float64) string {
		x0, y0 := point(f0, r)
		x1, y1 := point(f1, r)
		x2, y2 := point(f1, r-22)
		x3, y3 := point(f0, r-22)
		return fmt.Sprintf("M%.1f %.1fA%d %d 0 0 1 %.1f %.1fL%.1f %.1fA%d %d 0 0 0 %.1f %.1fZ", x0, y0, r, r, x1, y1, x2, y2, r-22, r-22, x3, y3)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart gauge" viewBox="0 0 340 165" role="img" aria-labelledby="%s-t"><title id="%s-t">%s: %s of %s %s</title>`,
		id, id, esc(title), thousands(value), thousands(limit), unit)
	fmt.Fprintf(&b, `<path class="track" d="%s"/>`, arc(0, 1))
	if frac > 0 {
		fmt.Fprintf(&b, `<path class="%s" d="%s"/>`, class, arc(0, math.Max(frac, 0.01)))
	}
	if target > 0 && limit > 0 {
		tf := math.Min(float64(target)/float64(limit), 1)
		x0, y0 := point(tf, r+6)
		x1, y1 := point(tf, r-28)
		fmt.Fprintf(&b, `<line class="target" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x0, y0, x1, y1)
		lx, ly := point(tf, r+16)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">target</text>`, lx, ly)
	}
	pct := 0
	if limit > 0 {
		pct = int(math.Round(100 * float64(value) / float64(limit)))
	}
	fmt.Fprintf(&b, `<text class="value" x="%d" y="%d" text-anchor="middle" style="font-size: 26px">%d%%</text>`, cx, cy-8, pct)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s / %s %s</text>`, cx, cy+18, thousands(value), thousands(limit), unit)
	b.WriteString(`</svg>`)
	rows := [][2]string{{"Size", thousands(value) + " " + unit}, {"Budget", thousands(limit) + " " + unit}}
	if target > 0 {
		rows = append(rows, [2]string{"Target", thousands(target) + " " + unit})
	}
	b.WriteString(dataTable(title, rows))
	return template.HTML(b.String()) //nolint:gosec // escaped above
}

// calendarDay is one day of the activity calendar.
type calendarDay struct {
	Value int
	URL   string // the day's daily log, relative to the page
	Label string
}

// calendar draws a GitHub-style grid, a column per week from first to
// last (at most 106 weeks, the latest kept), Monday on top. Days with a
// log link to it.
func calendar(id, title string, days map[string]calendarDay, first, last time.Time) template.HTML {
	const cell, gap, left, top = 12, 3, 28, 18
	// Start on the Monday of the first week.
	start := first.AddDate(0, 0, -((int(first.Weekday()) + 6) % 7))
	weeks := int(last.Sub(start).Hours()/24)/7 + 1
	if weeks > 106 {
		start = start.AddDate(0, 0, 7*(weeks-106))
		weeks = 106
	}
	maxV := 1
	for _, d := range days {
		maxV = max(maxV, d.Value)
	}
	width := left + weeks*(cell+gap)
	height := top + 7*(cell+gap) + 4
	var b strings.Builder
	// No role="img": the days with a log are links, and an image's
	// children are not reachable.
	fmt.Fprintf(&b, `<svg class="chart calendar" viewBox="0 0 %d %d" style="max-width: %dpx" aria-labelledby="%s-t"><title id="%s-t">%s</title>`,
		width, height, max(width*2, 340), id, id, esc(title))
	for i, name := range []string{"Mon", "", "Wed", "", "Fri", "", ""} {
		if name != "" {
			fmt.Fprintf(&b, `<text x="0" y="%d">%s</text>`, top+i*(cell+gap)+10, name)
		}
	}
	lastMonth := -1
	for w := 0; w < weeks; w++ {
		for dow := 0; dow < 7; dow++ {
			day := start.AddDate(0, 0, w*7+dow)
			if day.After(last) {
				break
			}
			if dow == 0 && int(day.Month()) != lastMonth {
				lastMonth = int(day.Month())
				fmt.Fprintf(&b, `<text x="%d" y="11">%s</text>`, left+w*(cell+gap), day.Format("Jan"))
			}
			key := day.Format("2006-01-02")
			d := days[key]
			level := 0
			if d.Value > 0 {
				level = 1 + int(3.999*float64(d.Value)/float64(maxV))
				level = min(level, 4)
			}
			x, y := left+w*(cell+gap), top+dow*(cell+gap)
			class := "day"
			if level > 0 {
				class = fmt.Sprintf("day l%d", level)
			}
			rect := fmt.Sprintf(`<rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="2"><title>%s</title></rect>`, class, x, y, cell, cell, esc(key+": "+d.Label))
			if d.URL != "" {
				fmt.Fprintf(&b, `<a href="%s" aria-label="%s">%s</a>`, esc(d.URL), esc(key+": "+d.Label), rect)
			} else {
				b.WriteString(rect)
			}
		}
	}
	b.WriteString(`</svg>`)
	var rows [][2]string
	for w := 0; w < weeks*7; w++ {
		day := start.AddDate(0, 0, w)
		if day.After(last) {
			break
		}
		if d := days[day.Format("2006-01-02")]; d.Value > 0 {
			rows = append(rows, [2]string{day.Format("2006-01-02"), d.Label})
		}
	}
	b.WriteString(dataTable(title, rows))
	return template.HTML(b.String()) //nolint:gosec // escaped above
}

// dataTable shows a chart's numbers in a folded table.
func dataTable(title string, rows [][2]string) string {
	var b strings.Builder
	b.WriteString(`<details><summary>Data</summary><table><caption class="visually-hidden">`)
	b.WriteString(esc(title))
	b.WriteString(`</caption><tbody>`)
	for _, r := range rows {
		fmt.Fprintf(&b, `<tr><th scope="row">%s</th><td>%s</td></tr>`, esc(r[0]), esc(r[1]))
	}
	b.WriteString(`</tbody></table></details>`)
	return b.String()
}

// thousands writes n with comma separators: 12,345.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
