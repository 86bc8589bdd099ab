package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

// Resource URIs. Pages are the site's Markdown twins, named by their path
// in the site; MEMORY.md is the workspace file as published; a claim's
// page is also reachable by the claim's id.
const (
	pagePrefix  = "dreamwiki://site/"
	memoryURI   = "dreamwiki://workspace/MEMORY.md"
	claimPrefix = "dreamwiki://claim/"
)

// resources keeps the server's resource list equal to the site's pages:
// before a list or a read it catches up with api/pages.json.
type resources struct {
	src    Source
	settle func(context.Context) error

	mu     sync.Mutex
	srv    *sdk.Server
	pages  []byte            // the api/pages.json the list was made from
	listed map[string]bool   // page URIs registered
	claims []byte            // the api/claims.json twins was read from
	twins  map[string]string // claim id -> its page's twin
}

func (r *resources) register(s *sdk.Server) {
	r.srv, r.listed = s, map[string]bool{}
	s.AddResource(&sdk.Resource{URI: memoryURI, Name: "MEMORY.md", Title: "MEMORY.md (the agent's memory index)", MIMEType: "text/markdown"}, r.readMemory)
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: claimPrefix + "{id}", Name: "claim", Title: "A claim's page by its id (claim.…)", MIMEType: "text/markdown"}, r.readClaim)
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if strings.HasPrefix(method, "resources/") {
				if err := r.settle(ctx); err != nil {
					return nil, err
				}
				r.sync()
			}
			return next(ctx, method, req)
		}
	})
}

// pageList is the part of api/pages.json resources need.
type pageList struct {
	Pages []struct {
		Markdown string `json:"markdown"`
		Title    string `json:"title"`
		Kind     string `json:"kind"`
	} `json:"pages"`
}

// sync registers the pages the site has now and removes those it lost.
func (r *resources) sync() {
	data, ok := r.src.SiteFile("api/pages.json")
	r.mu.Lock()
	defer r.mu.Unlock()
	if !ok || bytes.Equal(data, r.pages) {
		return
	}
	var pl pageList
	if err := json.Unmarshal(data, &pl); err != nil {
		return
	}
	r.pages = data
	now := map[string]bool{}
	var add []*sdk.Resource
	for _, p := range pl.Pages {
		if p.Markdown == "" {
			continue
		}
		uri := pagePrefix + p.Markdown
		now[uri] = true
		if !r.listed[uri] {
			add = append(add, &sdk.Resource{URI: uri, Name: p.Markdown, Title: p.Title, Description: p.Kind, MIMEType: "text/markdown"})
		}
	}
	var gone []string
	for uri := range r.listed {
		if !now[uri] {
			gone = append(gone, uri)
		}
	}
	if len(gone) > 0 {
		r.srv.RemoveResources(gone...)
	}
	for _, res := range add {
		r.srv.AddResource(res, r.readPage)
	}
	r.listed = now
}

func (r *resources) readPage(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	name := strings.TrimPrefix(uri, pagePrefix)
	data, ok := r.src.SiteFile(name)
	if !ok || !strings.HasSuffix(name, ".md") {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	return markdown(uri, string(data)), nil
}

func (r *resources) readMemory(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	res, err := memsearch.Get(r.src.Workspace(), "MEMORY.md", 0, 0)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	return markdown(req.Params.URI, res.Text), nil
}

// readClaim reads the page of the claim a claim URI names, found through
// api/claims.json, which says where each claim's twin is.
func (r *resources) readClaim(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	id := strings.TrimPrefix(req.Params.URI, claimPrefix)
	name, ok := r.claimTwin(id)
	if !ok {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	data, ok := r.src.SiteFile(name)
	if !ok {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	return markdown(req.Params.URI, string(data)), nil
}

func (r *resources) claimTwin(id string) (string, bool) {
	data, ok := r.src.SiteFile("api/claims.json")
	if !ok {
		return "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !bytes.Equal(data, r.claims) {
		var cl struct {
			Claims []struct {
				ID       string `json:"id"`
				Markdown string `json:"markdown"`
			} `json:"claims"`
		}
		if err := json.Unmarshal(data, &cl); err != nil {
			return "", false
		}
		r.claims, r.twins = data, make(map[string]string, len(cl.Claims))
		for _, c := range cl.Claims {
			r.twins[c.ID] = c.Markdown
		}
	}
	name, ok := r.twins[id]
	if !ok {
		name, ok = r.twins["claim."+id]
	}
	return name, ok && name != ""
}

func markdown(uri, text string) *sdk.ReadResourceResult {
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}
}
