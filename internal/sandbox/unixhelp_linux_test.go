package sandbox

import (
	"fmt"
	"io"
	"net"
	"syscall"
)

// dialUnixArg makes the test binary connect to a unix socket (a path, or
// @name for an abstract one) and print what it read.
const dialUnixArg = "__dialunix"

func dialUnix(addr string) int {
	c, err := net.Dial("unix", addr)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer c.Close()
	b, _ := io.ReadAll(io.LimitReader(c, 64))
	fmt.Printf("connected: %s\n", b)
	return 0
}

// socketpairArg makes the test binary pass bytes through a socketpair.
const socketpairArg = "__socketpair"

func socketpair() int {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	if _, err := syscall.Write(fds[0], []byte("pair")); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	b := make([]byte, 4)
	n, _ := syscall.Read(fds[1], b)
	fmt.Printf("socketpair: %s\n", b[:n])
	return 0
}
