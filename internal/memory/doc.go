// Package memory sets how a ccm process spends memory: it starts without
// collecting garbage until it maps StartRoom (Start), and a converged
// daemon collects by the heap it keeps (Pacer) and gives back the pages
// of the program that only its load used (TrimProgram).
package memory
