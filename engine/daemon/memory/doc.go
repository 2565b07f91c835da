// Package memory keeps a converged daemon's resident memory to what it
// keeps: it paces the garbage collector by the heap the daemon keeps
// (Pacer), and gives back the pages of the program that only the load
// used (TrimProgram).
package memory
