// The flow of a match in JavaScript: the twin of games/flow.py, so that the table page's
// outbox (outbox-queue.js) can move the board on while hands wait to be sent (who deals next,
// the winds, the round, a goulash hand, who sits out, the end of the match).
// The server's games/flow.py stays the authority: every state this file works out is
// replaced by the server's once the hands are sent. tests/browser/test_flow_twin.py
// replays random matches through both and checks they agree at every step; change the
// two together. Only the moves are here: the constants (winds, limits, which wins need a
// discarder) are games/flow.py's CONSTANTS, which the page's JSON carries (table_flow's
// flow) and the caller passes in; outcomes come from the page's own forms, so the Python
// side's wording of refusals is not repeated here (an impossible outcome throws a plain
// Error).
(function (root) {
  "use strict";

  // A table with more players than winds has a Dreamer: the chair just before the dealer.
  function windsAfterPassing(c, players, dealer) {
    var winds = [];
    for (var chair = 0; chair < players; chair++) {
      var offset = (((chair - dealer) % players) + players) % players;
      winds.push(offset < c.winds.length ? c.winds[offset] : null);
    }
    return winds;
  }

  function sittingOut(c, players, dealer) {
    return players > c.winds.length ? (((dealer - 1) % players) + players) % players : null;
  }

  function Flow(c, rules, players, options) {
    this.c = c;
    this.rules = rules;
    this.players = players;
    this.dealer = 0;
    this.round = 0;
    this.goulash = false;
    this.over = false;
    this.games = null;
    this.rounds = c.default_rounds;
    this.fixedWinds = null;
    this.withDreamer = players > c.winds.length;
    if (rules === "hk" || rules === "fan") {
      var rounds = options && options.rounds !== undefined ? options.rounds : c.default_rounds;
      if (typeof rounds !== "number" || rounds % 1 !== 0 || rounds < 1 || rounds > c.max_rounds) {
        throw new Error("The number of rounds must be a whole number from 1 to " + c.max_rounds + ".");
      }
      this.rounds = rounds;
    } else if (rules === "classical") {
      this.games = 0;
      // At three or four the seat winds stay with the chairs.
      if (!this.withDreamer) this.fixedWinds = windsAfterPassing(c, players, 0);
    } else if (rules !== "u3a") {
      throw new Error("Unknown rule set " + rules + ".");
    }
  }

  Flow.prototype.winds = function (dealer) {
    return this.fixedWinds ? this.fixedWinds.slice() : windsAfterPassing(this.c, this.players, dealer);
  };

  Flow.prototype.sittingOut = function (dealer) {
    return sittingOut(this.c, this.players, dealer);
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
      round: this.c.winds[this.round],
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
      if (this.games >= this.c.classical_games) {
        this.over = true;
        return;
      }
      this.round = Math.floor(this.games / this.c.games_per_round);
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
      if (this.c.needs_discarder.indexOf(outcome.won_by) !== -1) {
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

  // The state before each hand and after the last, as games.flow.replay gives them;
  // `constants` is games/flow.py's CONSTANTS (the page's JSON: table_flow's flow).
  function replay(constants, rules, outcomes, players, options) {
    var c = constants;
    if (typeof players !== "number" || players < c.min_players || players > c.max_players) {
      throw new Error("A table has " + c.min_players + " to " + c.max_players + " players.");
    }
    var flow = new Flow(c, rules, players, options || {});
    var states = [flow.state(1)];
    for (var i = 0; i < outcomes.length; i++) {
      flow.apply(i + 1, outcomes[i]);
      states.push(flow.state(i + 2));
    }
    return states;
  }

  root.MatchFlow = { replay: replay };
})(window);
