// Command dreamwiki turns an AI agent's Markdown memory into an Obsidian
// provenance vault and a static wiki. This package only wires command-line
// flags to the packages that do the work.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
