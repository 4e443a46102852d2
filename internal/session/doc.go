// Package session keeps conversations as append-only JSONL logs, so that a
// session can be listed, loaded and resumed after the shell is gone, and
// so that an interrupt or a crash costs at most the record being written.
//
// A store is one directory. Session ID has:
//
//	ID.jsonl    the log: a meta record, then one record a line (messages,
//	            usage, compactions, other events), never rewritten
//	ID.json     a summary of the log, written whole (temp file, rename)
//	            when the log is created and when it is closed, with the
//	            log's size, so that listing sessions reads a few hundred
//	            bytes per closed session instead of every log; a log that
//	            has outgrown its summary (open, or its forge killed) is
//	            read instead, and its summary written again
//	ID.d/N.out  tool outputs too big to sit in a line, each stored once;
//	            the message's record names N. When the model read a cut
//	            of a long output, the whole of it, as the person was
//	            shown it, is kept too (Log.Result)
//	ID.d/blobs/ the files the agent's edits changed, as they were before,
//	            each content once, named by its sha256 (see History)
//	ID.lock     the lock of the forge writing the session (its pid and
//	            program), so that a second one is refused (InUseError)
//
// Durability: each record is a whole line given to the kernel in one
// write on a file opened for appending. There is no fsync per record: a
// crash of forge (kill -9 included) loses nothing the kernel has, and
// only a power cut can lose the last records, which is the price of
// appending in microseconds rather than milliseconds. Close syncs. A
// loader forgives what a cut can leave: a torn last line is skipped with
// a warning, and a conversation cut off between a call and its result is
// repaired (llm.Repair) so that a provider accepts it.
//
// Nothing here prints; problems come back as errors or as State.Warnings.
package session
