#include "operators/process/whitelist.hpp"

#include <fmt/format.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rubric::process {

using detail::MountKind;

const std::vector<std::string>& system_directories() {
  static const std::vector<std::string> dirs = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
  return dirs;
}

// What programs need of /etc to run (the dynamic loader's cache, alternatives behind /usr/bin
// links, names of users and hosts, TLS roots, time zone) and nothing of the machine's secrets
// or configuration.
const std::vector<std::string>& etc_entries() {
  static const std::vector<std::string> entries = {
      "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "passwd", "group", "nsswitch.conf", "hosts",
      "host.conf", "localtime", "timezone", "ssl", "ca-certificates", "os-release", "debian_version", "mime.types",
      "protocols", "services", "python3", "fonts", "gai.conf", "environment", "bash.bashrc", "profile", "inputrc",
      "magic", "papersize", "locale.alias", "locale.gen", "ucf.conf"};
  return entries;
}

const char* Whitelist::keep(std::string s) {
  strings_.push_back(std::move(s));
  return strings_.back().c_str();
}

void Whitelist::add(MountKind kind, const std::string& source, const std::string& path, const std::string& options,
                    bool is_file) {
  detail::MountStep m;
  m.kind = kind;
  m.source = source.empty() ? nullptr : keep(source);
  m.target = keep(root_ + path);
  m.options = options.empty() ? nullptr : keep(options);
  m.is_file = is_file;
  steps_.push_back(m);
}

// A symlink stays a symlink (/bin -> usr/bin), a directory is bound read-only, absence is absence.
void Whitelist::add_system_entry(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return;
  if (S_ISLNK(st.st_mode)) {
    char target[4096];
    ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0) return;
    add(MountKind::Symlink, std::string(target, std::size_t(n)), path);
  } else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
    add(MountKind::BindRo, path, path, "", S_ISREG(st.st_mode));
  }
}

Whitelist::Whitelist(const WhitelistSpec& spec) : root_(spec.new_root) {
  for (const std::string& d : system_directories()) add_system_entry(d);
  add(MountKind::Dir, "", "/etc");
  for (const std::string& e : etc_entries()) add_system_entry("/etc/" + e);

  const std::string tmp_options = fmt::format("size={},mode=1777", spec.tmp_bytes);
  add(MountKind::Tmpfs, "", "/dev", "size=64k,mode=0755");
  for (const char* dev : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}) {
    struct stat st;
    if (::stat(dev, &st) == 0 && S_ISCHR(st.st_mode)) add(MountKind::BindDev, dev, dev, "", true);
  }
  for (const std::string& dev : spec.devices) {
    struct stat st;
    if (::stat(dev.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
      add(MountKind::BindDev, dev, dev, "", true);
  }
  add(MountKind::Symlink, "/proc/self/fd", "/dev/fd");
  add(MountKind::Symlink, "/proc/self/fd/0", "/dev/stdin");
  add(MountKind::Symlink, "/proc/self/fd/1", "/dev/stdout");
  add(MountKind::Symlink, "/proc/self/fd/2", "/dev/stderr");
  add(MountKind::Tmpfs, "", "/dev/shm", tmp_options);
  add(MountKind::Tmpfs, "", "/tmp", tmp_options);
  add(MountKind::Tmpfs, "", "/var/tmp", tmp_options);
  if (spec.proc) add(MountKind::Proc, "", "/proc");

  // Extra read-only paths come before the writable ones: a writable folder inside one stays writable.
  // One already inside a system directory is there already (and binding over a running
  // program's file would fail).
  std::vector<std::string> system_real;
  for (const std::string& d : system_directories()) {
    char buf[PATH_MAX];
    if (::realpath(d.c_str(), buf)) system_real.push_back(std::string(buf) + "/");
  }
  for (const std::string& p : spec.read_only) {
    struct stat st;
    if (::stat(p.c_str(), &st) != 0) continue;
    char buf[PATH_MAX];
    if (!::realpath(p.c_str(), buf)) continue;
    const std::string real = buf;
    bool covered = false;
    for (const std::string& d : system_real) covered = covered || real.compare(0, d.size(), d) == 0;
    if (covered) continue;
    add(MountKind::BindRo, p, p, "", !S_ISDIR(st.st_mode));
  }
  for (const std::string& p : spec.read_write) add(MountKind::BindRw, p, p);
}

std::string Whitelist::describe(int i) const {
  if (i < 0 || i >= count()) return "switch to the new root";
  const detail::MountStep& m = steps_[std::size_t(i)];
  const std::string target = std::string(m.target).substr(root_.size());
  switch (m.kind) {
    case MountKind::Tmpfs: return fmt::format("mount a tmpfs on {}", target);
    case MountKind::BindRo: return fmt::format("bind {} read-only", target);
    case MountKind::BindRw: return fmt::format("bind {} writable", target);
    case MountKind::BindDev: return fmt::format("bind the device {}", target);
    case MountKind::Symlink: return fmt::format("link {}", target);
    case MountKind::Proc: return "mount /proc";
    default: return fmt::format("create {}", target);
  }
}

}  // namespace rubric::process
