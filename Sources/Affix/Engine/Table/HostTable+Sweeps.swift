internal import AffixRuntimeShims
import Synchronization

/// The table's sweeps: the passes that take dead hosts off both tables, on demand, in the
/// background and along with writes, and what each pass counts.
extension HostTable {
  /// Takes every dead host off both tables and releases their values on this thread, waiting
  /// for releases other threads have under way (see ``ReleaseQueue``). Returns how many hosts
  /// it took off. `deinitGrace`, for tests, replaces ``deinitGrace`` for this sweep's pass
  /// alone, so that a test can use a short grace without changing the process's.
  @discardableResult
  static func sweep(deinitGrace grace: Duration? = nil) -> Int {
    let swept = takeDeadHostsOff(deinitGrace: grace)
    ReleaseQueue.releaseAllAndWait()
    return swept
  }

  /// A sweep for the background sweeper: like ``sweep()`` without waiting for other threads.
  /// Returns how many hosts it took off and whether any host is left in either table.
  static func sweepInBackground() -> (swept: Int, hostsLeft: Bool) {
    let swept = takeDeadHostsOff()
    ReleaseQueue.releaseAll()
    let pinnedLeft = writer.withLock { $0.count > 0 }
    return (swept, pinnedLeft || WeakHostTable.hostCount > 0)
  }

  /// Takes every dead host off both tables into the release queue, and releases the values of
  /// hosts that linger in their deinit. Returns how many hosts it took off.
  static func takeDeadHostsOff(deinitGrace grace: Duration? = nil) -> Int {
    let pass = passLock.whileLocked { runPass(releasingPast: grace ?? deinitGrace) }
    pass.reportLingeringHosts()
    pass.releaseValuesPastGrace()
    let weak = WeakHostTable.sweep()
    _ = ReleaseQueue.enqueue(weak)
    return pass.swept + weak.count
  }

  /// Between two chunks of a pass, with the version even: waits until the readers that waited
  /// for a chunk have read, for up to about 50 µs, so that a read that misses waits for one
  /// chunk, not for the whole pass.
  private static func letWaitingReadersThrough() {
    guard waitingReaders.load(ordering: .acquiring) > 0 else { return }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .microseconds(50))
    while waitingReaders.load(ordering: .acquiring) > 0, clock.now < deadline {
      affix_spin_pause()
    }
  }

  /// What a pass did, and what is left to do once `passLock` is released.
  struct Pass {
    var swept = 0
    /// Whether a drain of the release queue must be scheduled.
    var drains = false
    /// How many hosts of each type have lingered in their deinit past ``lingerLimit``, newly.
    var overdue = HostTypeCounts()
    /// The grace past which the pass took hosts' storages, if it took them.
    var grace: Duration?
    /// The storages, retained, of hosts that have lingered past `grace`, newly.
    var pastGrace: [Unmanaged<AssociationStorage>] = []
    var pastGraceTypes = HostTypeCounts()

    /// Reports the overdue hosts, outside every lock: a diagnostic handler is user code.
    func reportLingeringHosts() {
      for entry in overdue.counts {
        let hosts = HostTypeCounts.words(entry.count, entry.type)
        Diagnostics.report(
          subsystem: "associations",
          message: "\(hosts.subject) been in \(hosts.its) deinit for more than \(lingerLimit), or "
            + "something holds \(hosts.it) unowned; \(hosts.its) values are kept until the "
            + "deinit has returned and no unowned reference remains, or for \(deinitGrace) "
            + "(AssociationTable.deinitGrace)")
      }
    }

    /// Releases the values of the hosts past their grace, outside every lock: capabilities'
    /// `didEnd` and observers run here, on the sweeping thread.
    func releaseValuesPastGrace() {
      for storage in pastGrace {
        _ = storage._withUnsafeGuaranteedRef { $0.releaseValuesOfLingeringHost() }
        storage.release()
      }
      for entry in pastGraceTypes.counts {
        let hosts = HostTypeCounts.words(entry.count, entry.type)
        Diagnostics.report(
          subsystem: "associations",
          message: "\(hosts.subject) stayed in \(hosts.its) deinit, or been held unowned, for "
            + "\(grace ?? deinitGrace) "
            + "(AssociationTable.deinitGrace): \(hosts.its) values are released now, and a "
            + "deinit still running reads none")
      }
    }
  }

  /// Hosts counted by type, in the order the types were first counted.
  struct HostTypeCounts {
    private(set) var counts: [(type: any AnyObject.Type, count: Int)] = []

    /// "a Photo has" and its pronouns, or "3 Photo hosts have" and theirs.
    static func words(_ count: Int, _ type: any AnyObject.Type) -> (
      subject: String, it: String, its: String
    ) {
      count == 1
        ? ("a \(type) has", "it", "its") : ("\(count) \(type) hosts have", "them", "their")
    }

    mutating func add(_ type: any AnyObject.Type) {
      if let index = counts.firstIndex(where: { $0.type == type }) {
        counts[index].count += 1
      } else {
        counts.append((type, 1))
      }
    }
  }

  /// Sweeps every slot, one chunk at a time under the lock, and queues the dead hosts'
  /// storages for release; given a grace, also takes the storages of hosts that have lingered
  /// past it, for the caller to empty. The caller holds `passLock`.
  static func runPass(releasingPast grace: Duration?) -> Pass {
    var index = 0
    var arrayBits: UInt = 0
    var pass = Pass(grace: grace)
    var lingeringNow: [UInt: ContinuousClock.Instant] = [:]
    let now = ContinuousClock.now
    writer.withLock { $0.passInProgress = true }
    var finished = false
    while !finished {
      writer.withLock { state in
        // Only a pass makes the table grow, and passes take turns: the array never changes
        // under a pass. Start over if it ever does.
        if state.slots.bits != arrayBits {
          arrayBits = state.slots.bits
          index = 0
        }
        var chunk: [Unmanaged<AssociationStorage>] = []
        var budget = chunkSize
        beginWrite()
        while budget > 0, index < state.slots.capacity {
          guard state.slots.address(at: index) != 0 else {
            budget -= 1
            index += 1
            continue
          }
          // A whole run of occupied slots at a time, from its end back to its start: removing
          // an entry shifts back the entries after it in its run, so removing a run's dead
          // front to back would cost the square of its length, and back to front costs each
          // removal only the live entries behind it.
          var end = index + 1
          while end < state.slots.capacity, state.slots.address(at: end) != 0 { end += 1 }
          budget -= end - index
          for slot in (index..<end).reversed() {
            switch state.slots.host(at: slot) {
            case .dead(let storage):
              chunk.append(storage)
              budget -= state.slots.remove(at: slot) - 1
              state.count -= 1
            case .inDeinit(let address):
              let firstSeen = state.lingering[address] ?? now
              lingeringNow[address] = firstSeen
              if now - firstSeen >= lingerLimit, state.reported.insert(address).inserted {
                pass.overdue.add(state.slots.hostType(at: slot))
              }
              if let grace, now - firstSeen >= grace,
                state.released.insert(address).inserted, let storage = state.slots.storage(at: slot)
              {
                // Retained under the lock, while the table holds it.
                pass.pastGrace.append(storage.retain())
                pass.pastGraceTypes.add(state.slots.hostType(at: slot))
              }
            case .empty, .live:
              break
            }
          }
          index = end
        }
        endWrite()
        finished = index >= state.slots.capacity
        if ReleaseQueue.enqueue(chunk) { pass.drains = true }
        pass.swept += chunk.count
        if finished {
          state.passInProgress = false
          state.lingering = lingeringNow
          state.reported.formIntersection(lingeringNow.keys)
          state.released.formIntersection(lingeringNow.keys)
        }
      }
      // A moment between chunks for the readers that wait for one: a lock taken again at
      // once would starve them.
      if !finished { letWaitingReadersThrough() }
    }
    return pass
  }
}
