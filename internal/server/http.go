package server

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"html"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/dreamwiki/dreamwiki/assets"
)

// maxBody caps request bodies: the API takes small JSON at most.
const maxBody = 64 << 10

// TokenHeader carries the per-process token on requests that write: a
// dream, and a search to be logged as a recall.
const TokenHeader = "X-Dreamwiki-Token"

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_dreamwiki/ws", s.serveWS)
	mux.HandleFunc("GET /_dreamwiki/client.js", serveClient)
	mux.HandleFunc("GET /_dreamwiki/client.css", serveClient)
	mux.HandleFunc("GET /_dreamwiki/status", s.serveStatus)
	mux.HandleFunc("/_dreamwiki/", http.NotFound)
	mux.HandleFunc("GET /api/search", s.serveSearch)
	mux.HandleFunc("GET /api/get", s.serveGet)
	mux.HandleFunc("POST /api/dream", s.serveDream)
	mcpH := s.mcpHandler()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		// Agents send no Origin; a page of another site must not reach the
		// tools (the Host check already stops DNS rebinding).
		if !sameOrigin(r, true) {
			jsonError(w, http.StatusForbidden, "this request comes from another site (Origin "+r.Header.Get("Origin")+"); /mcp answers local programs and this server's own pages")
			return
		}
		mcpH.ServeHTTP(w, r)
	})
	for _, p := range apiRoutes {
		mux.HandleFunc(p, s.apiNotFound) // other methods
	}
	return s.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Site paths never reach the mux, which would answer a path with
		// ".." in it by redirecting to its cleaned form: serveSite refuses
		// it instead. The site has files under api/ too (api/pages.json,
		// api/claims.json): only the server's own endpoints are the mux's.
		p := r.URL.Path
		if strings.HasPrefix(p, "/_dreamwiki/") || apiRoute(p) || p == "/mcp" {
			if _, ok := sitePath(r.URL); !ok {
				http.NotFound(w, r)
				return
			}
			mux.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		s.serveSite(w, r)
	}))
}

// guard applies what every request must pass: a Host this server answers
// to (a page of another site that resolves its own name to 127.0.0.1, the
// DNS rebinding attack, is refused), a capped body, and headers that
// keep pages from being framed or sniffed.
func (s *Server) guard(next http.Handler) http.Handler { return guarded(s.hostAllowed, next) }

// guarded is guard for any server whose Host check is allowed.
func guarded(allowed func(host string) bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed(r.Host) {
			http.Error(w, "dreamwiki serve answers to localhost only (use the address it printed)", http.StatusMisdirectedRequest)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-cache")
		next.ServeHTTP(w, r)
	})
}

// hostAllowed accepts the loopback names and the address the server is
// bound to; bound elsewhere (the user asked for it, and was warned), any
// host is accepted.
func (s *Server) hostAllowed(host string) bool {
	s.mu.RLock()
	bound, loopback := s.bound, s.loopback
	s.mu.RUnlock()
	return hostAllowed(bound, loopback, host)
}

// hostAllowed is the Host check of a server bound to bound.
func hostAllowed(bound string, loopback bool, host string) bool {
	if bound != "" && !loopback {
		return true
	}
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.Trim(strings.ToLower(h), "[]")
	switch h {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return true
	}
	return strings.HasSuffix(h, ".localhost")
}

// sameOrigin reports whether a request comes from a page of this server.
// Browsers say where a request comes from: Sec-Fetch-Site on every
// request (Chromium, Firefox, Safari since 16.4), Origin on POSTs,
// websocket upgrades and cross-origin fetches. An <img> or a no-cors
// fetch from another site carries no Origin, only Sec-Fetch-Site:
// cross-site (same-site for another port of this host). A request with
// neither comes from a program, not a page (emptyOK says whether to allow
// it: the websocket and /mcp do; what writes asks for the token as well).
func sameOrigin(r *http.Request, emptyOK bool) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none": // none: typed in the address bar
	default:
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return emptyOK
	}
	u, err := url.Parse(o)
	if err != nil || u.Scheme != "http" {
		return false // "null" too: a sandboxed document, a file:// page
	}
	return strings.EqualFold(u.Host, r.Host)
}

// trusted reports whether a request may change the workspace: it comes
// from this server's own pages or a local program (sameOrigin) and
// carries the per-process token, which only the pages this server serves
// hold (another site cannot read them, nor send the header without a
// preflight this server never answers). When it may not, why says so.
func (s *Server) trusted(r *http.Request) (why string, ok bool) {
	if !sameOrigin(r, true) {
		from := r.Header.Get("Origin")
		if from == "" {
			from = r.Header.Get("Sec-Fetch-Site")
		}
		return "this request comes from another site (" + from + "); dreamwiki serve only takes it from its own pages", false
	}
	tok := r.Header.Get(TokenHeader)
	if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		return "missing or wrong token: reload the page (the server restarted) or send the " + TokenHeader + " header the served pages carry", false
	}
	return "", true
}

// mutating checks a request that changes something (trusted). It
// answers 403 itself when the check fails.
func (s *Server) mutating(w http.ResponseWriter, r *http.Request) bool {
	why, ok := s.trusted(r)
	if !ok {
		jsonError(w, http.StatusForbidden, why)
	}
	return ok
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader().Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered (403 for a foreign Origin)
	}
	s.hub.serve(conn)
}

func serveClient(w http.ResponseWriter, r *http.Request) {
	b, err := assets.Serve()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if strings.HasSuffix(r.URL.Path, ".js") {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write(b.JS)
		return
	}
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	_, _ = w.Write(b.CSS)
}

// serveStatus reports the build's state, for scripts and tests.
func (s *Server) serveStatus(w http.ResponseWriter, r *http.Request) {
	s.mu.RLock()
	st := struct {
		Builds   int       `json:"builds"`
		Problems []Problem `json:"problems"`
		Clients  int       `json:"clients"`
		ReadOnly bool      `json:"readOnly"`
	}{s.builds, s.problems, 0, s.opts.ReadOnly}
	s.mu.RUnlock()
	st.Clients = s.hub.count()
	if st.Problems == nil {
		st.Problems = []Problem{}
	}
	writeJSON(w, http.StatusOK, st)
}

// apiRoutes are the server's endpoints under /api/.
var apiRoutes = []string{"/api/search", "/api/get", "/api/dream"}

func apiRoute(p string) bool {
	for _, r := range apiRoutes {
		if p == r {
			return true
		}
	}
	return false
}

func (s *Server) apiNotFound(w http.ResponseWriter, r *http.Request) {
	jsonError(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+" is not allowed")
}

// serveSite serves a file of the built site.
func (s *Server) serveSite(w http.ResponseWriter, r *http.Request) {
	serveFile(w, r, s.store.get, func(string) string { return "404.html" }, func(name string, data []byte) []byte {
		if strings.HasSuffix(name, ".html") && !strings.HasSuffix(name, ".preview.html") {
			return s.inject(data)
		}
		return data
	})
}

// serveFile answers a request for a file of a site held in memory (get):
// a folder without its trailing slash is redirected, a missing file gets
// the page notFound names for its path (with 404), and edit, when not
// nil, may change what is sent.
func serveFile(w http.ResponseWriter, r *http.Request, get func(name string) ([]byte, bool), notFound func(name string) string, edit func(name string, data []byte) []byte) {
	name, ok := sitePath(r.URL)
	var data []byte
	if ok {
		data, ok = get(name)
		if !ok && !strings.HasSuffix(name, ".html") && path.Ext(name) == "" {
			// A folder without its trailing slash.
			if _, dir := get(name + "/index.html"); dir {
				http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
		}
	}
	status := http.StatusOK
	if !ok {
		status = http.StatusNotFound
		name = notFound(strings.TrimPrefix(r.URL.Path, "/"))
		if data, ok = get(name); !ok {
			http.NotFound(w, r)
			return
		}
	}
	if edit != nil {
		data = edit(name, data)
	}
	ctype := contentType(name)
	w.Header().Set("Content-Type", ctype)
	if scriptable(ctype) && !ownPage(name) {
		// Opened on its own (a link to it, its address typed), a file of
		// the workspace would run its script as the wiki: read a page's
		// token, dream, write recall events. Sandboxed, it has an origin
		// of its own and runs none; an <img> shows it all the same.
		w.Header().Set("Content-Security-Policy", "sandbox")
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

// sitePath maps a URL onto a file of the site, refusing anything that is
// not plainly a path inside it: "..", encoded or not, backslashes, NUL,
// dot-files and dot-folders, backup and editor files. The site lives in
// memory, so nothing outside it could be read anyway; refusing early
// keeps the rule obvious.
func sitePath(u *url.URL) (string, bool) {
	raw := u.EscapedPath()
	low := strings.ToLower(raw)
	if strings.Contains(low, "%2e%2e") || strings.Contains(low, "%2f") || strings.Contains(low, "%5c") || strings.Contains(low, "%00") {
		return "", false
	}
	p := u.Path
	if strings.ContainsAny(p, "\\\x00") || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return "", false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == ".." || seg == "." || strings.HasPrefix(seg, ".") || strings.HasSuffix(seg, "~") ||
			strings.HasSuffix(seg, ".bak") || strings.HasSuffix(seg, ".swp") {
			return "", false
		}
	}
	name := strings.TrimPrefix(p, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	if path.Clean("/"+name) != "/"+name {
		return "", false
	}
	return name, true
}

// ownPage reports whether a file of the site is one of the pages the
// site rendered, which run its scripts (and serve's client). Every HTML
// file of the site is: a workspace publishes its images, PDFs, audio and
// video, never its HTML (workspace's assetExt), and raw HTML in a note is
// shown as text. TestServe_WorkspaceFilesRunNoScriptAsTheWiki holds both.
func ownPage(name string) bool { return strings.HasSuffix(name, ".html") }

// scriptable reports whether a browser opening a file of media type ctype
// on its own could run script in it: HTML, and XML (SVG, XHTML, and any
// XML a style sheet turns into HTML). Images, PDFs, audio, video, text and
// JSON run none (nosniff keeps the browser to the type sent).
func scriptable(ctype string) bool {
	mt, _, _ := mime.ParseMediaType(ctype)
	return mt == "text/html" || strings.HasSuffix(mt, "/xml") || strings.HasSuffix(mt, "+xml") || mt == "text/xsl"
}

// contentType is the media type of a site file.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json":
		return "application/json"
	case ".xml":
		return "application/xml; charset=utf-8"
	case ".bin":
		return "application/octet-stream"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// inject adds serve mode to a page: on <body>, data-api="1" (the search
// box asks /api/search), data-serve="1" and the token; before </head> the
// client's style, before </body> its script. The page is otherwise the
// built page, byte for byte.
func (s *Server) inject(page []byte) []byte {
	return injectClient(page, ` data-api="1" data-serve="1" data-readonly="`+boolAttr(s.opts.ReadOnly)+`" data-token="`+html.EscapeString(s.token)+`"`)
}

// injectClient adds the serve-mode client to a page: attrs on <body>, its
// style before </head> and its script before </body>. A page that is not
// one of ours is returned as it is.
func injectClient(page []byte, attrs string) []byte {
	head := `<link rel="stylesheet" href="/_dreamwiki/client.css">` + "\n"
	tail := `<script src="/_dreamwiki/client.js" defer></script>` + "\n"
	out := make([]byte, 0, len(page)+len(attrs)+len(head)+len(tail))
	i := bytes.Index(page, []byte("<body"))
	j := bytes.Index(page, []byte("</head>"))
	k := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 || j < 0 || k < 0 || !(j < i && i < k) {
		return page // not a page of ours: serve it as it is
	}
	out = append(out, page[:j]...)
	out = append(out, head...)
	out = append(out, page[j:i+len("<body")]...)
	out = append(out, attrs...)
	out = append(out, page[i+len("<body"):k]...)
	out = append(out, tail...)
	out = append(out, page[k:]...)
	return out
}

func boolAttr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
