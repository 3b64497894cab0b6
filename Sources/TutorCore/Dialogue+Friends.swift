import Foundation

/// The Friends screen and the league lines of Home and Progress (see `League`). Friends come from
/// the edge (`DialogueContext.friends`); a Remove button carries a short key kept in the session,
/// never a chat id or a list position (a button on an old screen then removes the friend it named,
/// or nobody).
extension Reduction {
    var leagueWeek: LocalDay { League.week(of: ctx.now) }

    /// This learner's XP this league week.
    var weekXP: Int { learner.xpWeek == leagueWeek ? learner.weekXP : 0 }

    private func me(xp: Int) -> LeagueEntry {
        LeagueEntry(
            name: Self.firstNameOnly(learner.firstName), xp: xp, streak: learner.streak.current(on: today), isYou: true)
    }

    /// Friends who don't hide, as league entries of week `week`.
    func visible(_ friends: [FriendSummary], week: LocalDay) -> [LeagueEntry] {
        friends.filter { !$0.hidden }.map { friend in
            // A streak counts by its owner's days, not Eastern time (at 11 pm in Texas it is
            // already tomorrow in New York, and yesterday's streak would read as broken).
            let zone = friend.timeZone ?? friend.stateCode.flatMap { banks.state($0)?.primaryTimeZone }
            let today = LocalDay(ctx.now, in: zone.flatMap(TimeZone.init(identifier:)) ?? League.timeZone)
            return LeagueEntry(
                name: Self.firstNameOnly(friend.firstName), xp: friend.xp(inWeek: week),
                streak: friend.streak.current(on: today), isYou: false)
        }
    }

    /// Friends now (the edge also loads those removed this week, for last week's league).
    var currentFriends: [FriendSummary]? { ctx.friends?.filter { !$0.removedThisWeek } }

    /// Where the learner stands this week with the friends the edge loaded (nil: not loaded for this event).
    func leagueStanding(_ loaded: [FriendSummary]? = nil) -> LeagueStanding? {
        guard let friends = (loaded ?? ctx.friends)?.filter({ !$0.removedThisWeek }) else { return nil }
        if friends.isEmpty { return .noFriends }
        if learner.hideFromFriends { return .youHide(friends: friends.count) }
        let shown = visible(friends, week: leagueWeek)
        guard !shown.isEmpty else { return .friendsHidden(friends.count) }
        guard
            var line = League.line(
                in: League.standings(me: me(xp: weekXP), friends: shown), hiddenFriends: friends.count - shown.count)
        else { return nil }
        // "Beat Riley at today's Daily 5" only if Riley gets the same five and today's is still open.
        let ahead = friends.filter { !$0.hidden && Self.firstNameOnly($0.firstName) == line.aheadName }
        line.dailyCanSettleIt =
            !ahead.isEmpty && ahead.allSatisfy { $0.stateCode == learner.stateCode }
            && learner.dailyDay != dailyDay && dailyDay != nil
        return .ranked(line)
    }

    /// Last week's winner among the learner and the friends who don't hide (nil for a learner who
    /// hides), as first read this week: kept in the session, so a friend removed since doesn't
    /// rewrite who won.
    mutating func lastWeeksWinners(_ friends: [FriendSummary]) -> LeagueWeekWinners? {
        if let kept = state.session.lastWeek, kept.readInWeek == leagueWeek {
            return learner.hideFromFriends ? nil : kept.winners
        }
        let last = leagueWeek.adding(days: -7)
        let shown = visible(friends, week: last)
        guard !learner.hideFromFriends, !shown.isEmpty else { return nil }
        let mine = League.xp(
            inWeek: last, weekXP: learner.weekXP, xpWeek: learner.xpWeek, prevWeekXP: learner.prevWeekXP)
        var winners = League.winners(of: League.standings(me: me(xp: mine), friends: shown))
        // Alone at 0 XP among friends who didn't study is no league won.
        if winners?.you == true, winners?.friends.isEmpty == true, !shown.contains(where: { $0.xp > 0 }) {
            winners = nil
        }
        state.session.lastWeek = LastWeekSnapshot(readInWeek: leagueWeek, winners: winners)
        return winners
    }

    /// Last week's winner, said on Home during the new week's first day (US Eastern).
    mutating func lastWeekOnHome() -> LeagueWeekWinners? {
        guard let friends = ctx.friends, ctx.now < League.start(of: leagueWeek).addingTimeInterval(86_400) else {
            return nil
        }
        return lastWeeksWinners(friends)
    }

    /// The badge for last week's league: the most XP alone, ahead of at least one visible friend
    /// who studied; given the first time friends are read in the new week. A learner who hides
    /// can't win a league nobody saw them in.
    mutating func awardLastWeeksWinner() {
        guard let friends = ctx.friends, !learner.badges.contains(.leagueWinner), let w = lastWeeksWinners(friends),
            w.you, w.friends.isEmpty
        else { return }
        award(.leagueWinner)
    }

    mutating func showFriends(removed: String? = nil, friends loaded: [FriendSummary]? = nil) {
        guard let everyone = loaded ?? ctx.friends, let standing = leagueStanding(everyone) else { return showHome() }
        let friends = everyone.filter { !$0.removedThisWeek }
        awardLastWeeksWinner()
        state.session.screen = .friends
        let hiding = learner.hideFromFriends
        let standings = hiding ? [] : League.standings(me: me(xp: weekXP), friends: visible(friends, week: leagueWeek))
        // Every friend can be removed: those in the table in its order (by name if the learner
        // hides), then those who hide, by name (the count above already says some hide).
        let shown =
            friends
            .map {
                (friend: $0, xp: $0.hidden ? -1 : $0.xp(inWeek: leagueWeek), name: Self.firstNameOnly($0.firstName))
            }
            .sorted { a, b in
                (a.friend.hidden ? 1 : 0, hiding ? 0 : -a.xp, a.name) < (
                    b.friend.hidden ? 1 : 0, hiding ? 0 : -b.xp, b.name
                )
            }
        state.session.friendKeys = state.session.friendKeys?.filter { key in friends.contains { $0.chatID == key.value }
        }
        let lastWeek = lastWeeksWinners(everyone)
        // Each friend: challenge them straight away (no new link to pass on), or remove them.
        var rows: [[Button]] = shown.map { shownFriend in
            let key = friendKey(for: shownFriend.friend.chatID)
            return [
                Button(.challengeNamed(name: shownFriend.name), .challengeFriend(key)),
                Button(.removeFriend(name: shownFriend.name), .removeFriend(key)),
            ]
        }
        // A friend's challenge not played yet, found here again once its news has scrolled away.
        let waiting = shown.compactMap { shownFriend in
            shownFriend.friend.openChallenge.map { token in
                [
                    Button.link(
                        .playChallenge(name: shownFriend.name),
                        ChallengeReadyView.link(botUsername: ctx.botUsername, token: token))
                ]
            }
        }
        rows.insert(contentsOf: waiting, at: 0)
        rows.append([Button(.challengeFriend, .menu(.challenge))])
        if !shown.isEmpty { rows.append([Button(.daily(done: learner.dailyDay == dailyDay), .menu(.daily))]) }
        rows.append([Button(.home, .menu(.home))])
        send(
            .friends(
                FriendsView(
                    standings: standings, standing: standing, friendNames: shown.map(\.name), hidden: hiding,
                    lastWeek: lastWeek, weekStartsLocal: nextWeekStartLocal, removed: removed)),
            buttons: rows)
    }

    /// When the next league week starts in the learner's time zone, if that differs from US Eastern.
    var nextWeekStartLocal: LocalWeekTime? {
        let start = League.start(of: leagueWeek.adding(days: 7))
        let tz = Dialogue.timeZone(of: learner, banks: banks)
        guard tz.secondsFromGMT(for: start) != League.timeZone.secondsFromGMT(for: start) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        let c = calendar.dateComponents([.weekday, .hour, .minute], from: start)
        return LocalWeekTime(weekday: c.weekday ?? 1, minute: (c.hour ?? 0) * 60 + (c.minute ?? 0))
    }

    /// The session's key for a friend's Remove button: the same while they stay friends, new
    /// ones drawn from the chat's random stream (six letters and digits, unique in the chat).
    mutating func friendKey(for chatID: Int64) -> String {
        var keys = state.session.friendKeys ?? [:]
        if let known = keys.first(where: { $0.value == chatID }) { return known.key }
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var key: String
        repeat {
            key = String((0..<6).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        } while keys[key] != nil
        keys[key] = chatID
        state.session.friendKeys = keys
        return key
    }

    /// "✖ Remove Jordan": asks first. A key this chat never made is a stale button; one naming a
    /// friend who is gone already (they removed this learner first) shows the list as it is.
    mutating func askToUnfriend(_ key: String, callbackID: String) {
        guard let id = state.session.friendKeys?[key] else { return stale(callbackID) }
        guard let friend = currentFriends?.first(where: { $0.chatID == id }) else {
            effects.append(.answerButton(callbackID: callbackID, toast: .friendAlreadyGone))
            return showFriends()
        }
        effects.append(.answerButton(callbackID: callbackID, toast: nil))
        state.session.screen = .friends
        let name = Self.firstNameOnly(friend.firstName)
        send(
            .confirmUnfriend(ConfirmUnfriendView(name: name)),
            buttons: [
                [Button(.confirmUnfriend(name: name), .unfriend(key))],
                [Button(.keepFriend(name: name), .menu(.friends))],
            ])
    }

    /// Confirmed: both sides stop being friends (the friend isn't told).
    mutating func unfriend(_ key: String, callbackID: String) {
        guard let id = state.session.friendKeys?[key], var friends = ctx.friends else { return stale(callbackID) }
        guard let i = friends.firstIndex(where: { $0.chatID == id && !$0.removedThisWeek }) else {
            effects.append(.answerButton(callbackID: callbackID, toast: .friendAlreadyGone))
            return showFriends()  // gone already: what they asked for, said so
        }
        effects.append(.answerButton(callbackID: callbackID, toast: nil))
        // Kept, marked: it still counts in last week's league if that is first read now.
        friends[i].removedThisWeek = true
        let gone = friends[i]
        state.session.friendKeys?[key] = nil
        effects.append(.unfriend(gone.chatID))
        showFriends(removed: Self.firstNameOnly(gone.firstName), friends: friends)
    }

    /// Settings' "Hide me from my friends' league", said back so the tap is seen to work.
    mutating func toggleHideFromFriends() {
        state.learner.hideFromFriends.toggle()
        send(.notice(learner.hideFromFriends ? .hiddenFromLeague : .shownInLeague))
        showSettings()
    }

    /// XP also counts toward this week's league.
    mutating func addWeekXP(_ points: Int) {
        if learner.xpWeek != leagueWeek {
            state.learner.prevWeekXP = learner.xpWeek == leagueWeek.adding(days: -7) ? learner.weekXP : 0
            state.learner.xpWeek = leagueWeek
            state.learner.weekXP = 0
        }
        state.learner.weekXP += points
    }

    /// "⚔️ Challenge Riley": ten questions to play, then Riley gets them with a button to play (the
    /// way "Challenge Riley back" works). A key this chat never made, or a friend gone since, is stale.
    mutating func challengeFriend(_ key: String, callbackID: String) {
        guard let id = state.session.friendKeys?[key] else { return stale(callbackID) }
        guard let friend = currentFriends?.first(where: { $0.chatID == id }) else {
            effects.append(.answerButton(callbackID: callbackID, toast: .friendAlreadyGone))
            return showFriends()
        }
        effects.append(.answerButton(callbackID: callbackID, toast: nil))
        state.session.rematch = Rematch(chatID: friend.chatID, name: Self.firstNameOnly(friend.firstName), direct: true)
        startChallenge(back: true)
    }
}
