package memory

import "testing"

func TestIsStructural(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		// Hosts and addresses.
		{"Dev server: user@203.0.113.10", true},
		{"Gateway IP is 192.168.1.11.", true},
		{"IPv6 prefix 2001:db8:85a3::8a2e:370:7334/64", true},
		{"Loopback is ::1", true},
		{"Link-local fe80::1ff:fe23:4567:890a%eth0", true},
		{"The NAS is nas.home.arpa", true},
		{"API base is api.example.com", true},
		{"Tailnet name nuc-01.tail1234.ts.net", true},
		{"Old gateway host was nuc-01", true},
		{"web-01 terminates TLS", true},
		{"Backups run on pi4 at night", true},
		{"ssh pi@raspberrypi", true},
		// URLs, email, phone, handles.
		{"Grafana at http://localhost:3000", true},
		{"Docs: https://docs.example.com/guide", true},
		{"Site: www.example.org", true},
		{"Email Sam at sam@example.com", true},
		{"Call +44 20 7946 0958 after 9", true},
		{"Phone (555) 010-2030", true},
		{"@alice owns the deploy pipeline", true},
		// People.
		{"Sam is my manager", true},
		{"- **Alice Chen** is the new PM", true},
		{"Bob was our tech lead until March", true},
		{"My wife is Anna", true},
		{"User's landlord: Mr Patel", true},
		// Credential references.
		{"The NAS password is in 1Password", true},
		{"Deploy key lives in ~/.ssh/deploy_ed25519", true},
		{"OpenAI API key is stored in the .env file", true},
		{"password: [REDACTED:password]", true},

		// Not structural.
		{"Prefers TypeScript examples.", false},
		{"Update notes.md and README.md", false},
		{"Uses Node.js and Vue.js; ASP.NET at work", false},
		{"Released v1.2.3.4 yesterday", false},
		{"Chrome/131.0.6778.85 on the laptop", false},
		{"Meeting at 10:30:00, ratio 16:9", false},
		{"Fixed in commit 3f2a9c1", false},
		{"e.g. use pnpm, i.e. not npm", false},
		{"npm install @types/node", false},
		{"gpt-4 and covid-19 are not hosts", false},
		{"Docker is the runtime", false},
		{"This is my manager's laptop", false},
		{"Reset the password tomorrow", false},
		{"Token count: 1234", false},
		{"Daily log 2026-04-14", false},
		{"Python 3.13.1 and Go 1.26.8", false},
		{"Extract archive.tar.gz first", false},
		{"std::vector and Foo::Bar", false},
		{"The gateway is fast", false},
		{"He was the bearer of bad news", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsStructural(tt.text); got != tt.want {
			t.Errorf("IsStructural(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
