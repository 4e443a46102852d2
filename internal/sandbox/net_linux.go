package sandbox

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// network brings up the loopback interface of the sandbox's network
// namespace (tests listen there) and, when forge runs a proxy at sock,
// relays a loopback port to it. It returns the command's environment:
// this process's, with the proxy variables pointing at that port.
func network(sock string, dev, ino uint64) ([]string, error) {
	if err := loopbackUp(); err != nil {
		return nil, fmt.Errorf("bring up the loopback interface: %w", err)
	}
	if sock == "" {
		return withProxy(os.Environ(), ""), nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the proxy: %w", err)
	}
	go relay(l, sock, dev, ino)
	return withProxy(os.Environ(), "http://"+l.Addr().String()), nil
}

// loopbackUp sets the lo interface up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// relay copies each connection to l to a new connection to the proxy's
// unix socket, until the sandbox ends.
func relay(l net.Listener, sock string, dev, ino uint64) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			up, err := dialProxy(sock, dev, ino)
			if err != nil {
				c.Close()
				return
			}
			splice(up, c, strings.NewReader(""))
		}()
	}
}

// dialProxy connects to the socket at sock only if it is the file forge
// made (dev, ino): the directory it lies in is one a command may write
// in, and this process is outside the command's filter on unix sockets,
// so a link or a hard link put there in its place would reach another
// daemon. The file is opened without following a link, checked, and
// connected to through that very descriptor.
func dialProxy(sock string, dev, ino uint64) (net.Conn, error) {
	fd, err := unix.Open(sock, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK || uint64(st.Dev) != dev || st.Ino != ino {
		return nil, fmt.Errorf("%s is not forge's proxy socket", sock)
	}
	return net.Dial("unix", "/proc/self/fd/"+strconv.Itoa(fd))
}
