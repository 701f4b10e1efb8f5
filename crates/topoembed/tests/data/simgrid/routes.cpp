// Prints SimGrid's route between every two hosts of a platform:
//   routes PLATFORM.xml PREFIX N
// one line per ordered pair (i, j), i != j, of hosts PREFIXi, PREFIXj:
//   i j LINK LINK ..
// (the link names of Host::route_to, in order). tests/networks.rs compares
// them with topoembed's fat-tree and dragonfly routes.
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[])
{
  simgrid::s4u::Engine engine(&argc, argv);
  if (argc != 4) {
    std::fprintf(stderr, "usage: routes PLATFORM.xml PREFIX N\n");
    return 2;
  }
  engine.load_platform(argv[1]);
  const std::string prefix = argv[2];
  const int n              = std::stoi(argv[3]);
  std::vector<simgrid::s4u::Host*> hosts;
  for (int i = 0; i < n; i++)
    hosts.push_back(engine.host_by_name(prefix + std::to_string(i)));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j)
        continue;
      std::vector<simgrid::s4u::Link*> links;
      double latency = 0;
      hosts[i]->route_to(hosts[j], links, &latency);
      std::printf("%d %d", i, j);
      for (auto const* link : links)
        std::printf(" %s", link->get_cname());
      std::printf("\n");
    }
  return 0;
}
