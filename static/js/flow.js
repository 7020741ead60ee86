// The flow of a match in JavaScript: the twin of games/flow.py, so that the table page's
// outbox (outbox.js) can move the board on while hands wait to be sent (who deals next,
// the winds, the round, a goulash hand, who sits out, the end of the match).
// The server's games/flow.py stays the authority: every state this file works out is
// replaced by the server's once the hands are sent. tests/browser/test_flow_twin.py
// replays random matches through both and checks they agree at every step; change the
// two together. Only the moves are ported: outcomes come from the page's own forms, so
// the Python side's wording of refusals is not repeated here (an impossible outcome
// throws a plain Error).
(function (root) {
  "use strict";
  var WINDS = ["E", "S", "W", "N"];
  var CLASSICAL_GAMES = 16;
  var GAMES_PER_ROUND = 4;
  var DEFAULT_ROUNDS = 4;
  var NEEDS_DISCARDER = { discard: true, robbing_kong: true };

  function windsAfterPassing(players, dealer) {
    var winds = [];
    for (var chair = 0; chair < players; chair++) {
      var offset = (((chair - dealer) % players) + players) % players;
      winds.push(offset < WINDS.length ? WINDS[offset] : null);
    }
    return winds;
  }

  function sittingOut(players, dealer) {
    return players === 5 ? (((dealer - 1) % players) + players) % players : null;
  }

  function Flow(rules, players, options) {
    this.rules = rules;
    this.players = players;
    this.dealer = 0;
    this.round = 0;
    this.goulash = false;
    this.over = false;
    this.games = null;
    this.rounds = DEFAULT_ROUNDS;
    this.fixedWinds = null;
    this.withDreamer = players === 5;
    if (rules === "hk" || rules === "fan") {
      var rounds = options && options.rounds !== undefined ? options.rounds : DEFAULT_ROUNDS;
      if (typeof rounds !== "number" || rounds % 1 !== 0 || rounds < 1 || rounds > WINDS.length) {
        throw new Error("The number of rounds must be a whole number from 1 to 4.");
      }
      this.rounds = rounds;
    } else if (rules === "classical") {
      this.games = 0;
      // At three or four the seat winds stay with the chairs.
      if (!this.withDreamer) this.fixedWinds = windsAfterPassing(players, 0);
    } else if (rules !== "u3a") {
      throw new Error("Unknown rule set " + rules + ".");
    }
  }

  Flow.prototype.winds = function (dealer) {
    return this.fixedWinds ? this.fixedWinds.slice() : windsAfterPassing(this.players, dealer);
  };

  Flow.prototype.sittingOut = function (dealer) {
    // A table of five always has a Dreamer: the chair just before the dealer.
    return sittingOut(this.players, dealer);
  };

  Flow.prototype.state = function (hand) {
    if (this.over) {
      return {
        hand: hand, round: null, dealer: null, winds: null, goulash: false, over: true,
        sitting_out: null, games_played: this.games,
      };
    }
    return {
      hand: hand,
      round: WINDS[this.round],
      dealer: this.dealer,
      winds: this.winds(this.dealer),
      goulash: this.goulash,
      over: false,
      sitting_out: this.sittingOut(this.dealer),
      games_played: this.games,
    };
  };

  Flow.prototype.passDeal = function () {
    this.dealer = (this.dealer + 1) % this.players;
    if (this.dealer === 0) {
      this.round += 1;
      if (this.round >= this.rounds) this.over = true;
    }
  };

  Flow.prototype.afterWin = function (winner) {
    if (this.rules === "u3a") {
      if (this.goulash) {
        // Whoever wins the goulash hand, the dealer passes the dice.
        this.goulash = false;
        this.passDeal();
      } else if (winner !== this.dealer) {
        this.passDeal();
      }
    } else if (this.rules === "hk" || this.rules === "fan") {
      this.passDeal();
    } else {
      this.games += 1;
      if (this.games >= CLASSICAL_GAMES) {
        this.over = true;
        return;
      }
      this.round = Math.floor(this.games / GAMES_PER_ROUND);
      if (!this.withDreamer) this.dealer = winner;
      else if (winner !== this.dealer) this.dealer = (this.dealer + 1) % this.players;
    }
  };

  Flow.prototype.afterDraw = function () {
    if (this.rules === "u3a") this.goulash = true;
    else if (this.rules === "fan") this.passDeal();
    // hk replays a drawn hand; classical counts no game for it.
  };

  Flow.prototype.checkChair = function (hand, role, chair) {
    if (typeof chair !== "number" || chair % 1 !== 0 || chair < 0 || chair >= this.players) {
      throw new Error("Hand " + hand + ": the " + role + " is not a chair at this table.");
    }
    if (chair === this.sittingOut(this.dealer)) {
      throw new Error("Hand " + hand + ": chair " + chair + " is sitting out this hand.");
    }
  };

  Flow.prototype.apply = function (hand, outcome) {
    if (this.over) throw new Error("Hand " + hand + " cannot be recorded: the match is over.");
    var ends = false;
    if (outcome.tallies !== undefined) {
      if (this.rules !== "hk") throw new Error("Tallies are only recorded with the hk rules.");
      ends = Math.min.apply(null, outcome.tallies) <= 0;
    }
    if (outcome.draw === true) {
      this.afterDraw();
    } else {
      this.checkChair(hand, "winner", outcome.winner);
      if (NEEDS_DISCARDER[outcome.won_by]) {
        this.checkChair(hand, "discarder", outcome.discarder);
        if (outcome.discarder === outcome.winner) {
          throw new Error("Hand " + hand + ": the winner cannot be the discarder.");
        }
      } else if (outcome.discarder !== null && outcome.discarder !== undefined) {
        throw new Error("Hand " + hand + ": a self-drawn win has no discarder.");
      }
      this.afterWin(outcome.winner);
    }
    if (ends) this.over = true;
  };

  // The state before each hand and after the last, as games.flow.replay gives them.
  function replay(rules, outcomes, players, options) {
    if (typeof players !== "number" || players < 3 || players > 5) {
      throw new Error("A table has 3 to 5 players.");
    }
    var flow = new Flow(rules, players, options || {});
    var states = [flow.state(1)];
    for (var i = 0; i < outcomes.length; i++) {
      flow.apply(i + 1, outcomes[i]);
      states.push(flow.state(i + 2));
    }
    return states;
  }

  root.MatchFlow = { replay: replay, WINDS: WINDS };
})(window);
