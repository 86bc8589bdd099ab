package server

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Message is what the server tells open pages over the websocket. Type is
// one of:
//
//	hello    sent on connect: the build's state (Problems when it is broken)
//	reload   these site files changed (Paths); a page showing one reloads
//	css      only stylesheets changed (Paths): pages swap them in place
//	error    the build is broken (Problems); pages show an overlay
//	clear    the build is whole again; pages drop the overlay
//	dream    a dream's progress (Stage, Text)
//	dreamed  a dream finished (Dream)
type Message struct {
	Type     string    `json:"type"`
	Paths    []string  `json:"paths,omitempty"`
	Problems []Problem `json:"problems,omitempty"`
	Stage    string    `json:"stage,omitempty"`
	Text     string    `json:"text,omitempty"`
	Dream    *Dreamed  `json:"dream,omitempty"`
	// Build counts updates, so tests and pages can tell builds apart.
	Build int `json:"build,omitempty"`
	// Instance names the server process (hello only): a page that hears
	// a new one reloads, since its token and likely its site are stale.
	Instance string `json:"instance,omitempty"`
}

// Problem is one thing wrong with the build, shown in the error overlay.
type Problem struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

const (
	// sendQueue is how many messages a slow client may fall behind
	// before it is dropped (it reconnects and reloads).
	sendQueue = 32
	// pingEvery keeps connections alive through proxies and finds dead
	// peers; a peer silent for pongWait is gone.
	pingEvery = 20 * time.Second
	pongWait  = 45 * time.Second
	// writeWait bounds a write to a stuck peer.
	writeWait = 10 * time.Second
	// maxIncoming caps what a page may send: it only ever says hello.
	maxIncoming = 4 << 10
)

// hub keeps the open websockets and sends every one of them each message.
type hub struct {
	log     *slog.Logger
	mu      sync.Mutex
	clients map[*client]bool
	closed  bool
	// hello returns the message a new client gets first.
	hello func() Message
	wg    sync.WaitGroup
}

// client is one open websocket.
type client struct {
	conn *websocket.Conn
	send chan []byte
	done chan struct{}
	once sync.Once
}

func newHub(log *slog.Logger, hello func() Message) *hub {
	return &hub{log: log, clients: map[*client]bool{}, hello: hello}
}

// serve takes over an upgraded connection.
func (h *hub) serve(conn *websocket.Conn) {
	c := &client{conn: conn, send: make(chan []byte, sendQueue), done: make(chan struct{})}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		conn.Close()
		return
	}
	h.clients[c] = true
	h.wg.Add(2)
	h.mu.Unlock()
	if b, err := json.Marshal(h.hello()); err == nil {
		c.send <- b
	}
	go h.writer(c)
	go h.reader(c)
}

// broadcast queues m for every client; a client too far behind is
// dropped rather than allowed to hold the others up.
func (h *hub) broadcast(m Message) {
	b, err := json.Marshal(m)
	if err != nil {
		h.log.Error("encoding a message", "err", err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c.send <- b:
		default:
			h.log.Debug("dropping a websocket that fell behind")
			h.dropLocked(c)
		}
	}
}

// count returns the number of open websockets.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

func (h *hub) drop(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropLocked(c)
}

func (h *hub) dropLocked(c *client) {
	delete(h.clients, c)
	c.once.Do(func() { close(c.done) })
}

// writer sends queued messages and pings until the client is dropped.
func (h *hub) writer(c *client) {
	defer h.wg.Done()
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	defer c.conn.Close()
	for {
		select {
		case b := <-c.send:
			_ = c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
				h.drop(c)
				return
			}
		case <-ping.C:
			_ = c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				h.drop(c)
				return
			}
		case <-c.done:
			_ = c.conn.SetWriteDeadline(time.Now().Add(time.Second))
			_ = c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server closing"))
			return
		}
	}
}

// reader reads (and ignores) what the page sends, so that pongs and the
// close handshake are processed, and notices when the page goes away.
func (h *hub) reader(c *client) {
	defer h.wg.Done()
	defer h.drop(c)
	c.conn.SetReadLimit(maxIncoming)
	_ = c.conn.SetReadDeadline(time.Now().Add(pongWait))
	c.conn.SetPongHandler(func(string) error { return c.conn.SetReadDeadline(time.Now().Add(pongWait)) })
	for {
		if _, _, err := c.conn.ReadMessage(); err != nil {
			return
		}
		_ = c.conn.SetReadDeadline(time.Now().Add(pongWait))
	}
}

// close says goodbye to every client and waits for their goroutines.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	for c := range h.clients {
		h.dropLocked(c)
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// upgrader upgrades websocket requests whose Origin the server accepts.
func upgrader() *websocket.Upgrader {
	return &websocket.Upgrader{
		ReadBufferSize:  1024,
		WriteBufferSize: 4096,
		CheckOrigin:     func(r *http.Request) bool { return sameOrigin(r, true) },
	}
}
