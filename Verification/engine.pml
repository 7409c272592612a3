/*
 * engine.pml: a Promela model of the one-callback engine of CheckoutFlows (the contract's E1-E6,
 * E9). Verification/README.md maps every name here to the Swift code; Scripts/verify.sh runs it.
 *
 * What it models:
 *   - the flow's state machine, decided under the lock (FlowRunner.send -> the event -> settle):
 *     ShippingAddressStateMachine or PaymentAuthorizationStateMachine, chosen at start, with
 *     deadlines on or off, violation reports on or off;
 *   - the work queue, drained outside the lock by one thread at a time (FlowRunner.drain), and
 *     who drains: the flag `RunnerLocked.draining` (`draining`), under the lock like the rest: the
 *     drainer comes back under the lock after every delegate call;
 *   - the deadlines (CheckoutClock): a callback's deadline starts, and is armed, when the draining
 *     thread takes its delegate call, under the lock (FlowMachine.delegateCalled, FlowRunner.rearm),
 *     not when the machine opens it; cancelled lazily outside the lock, fired on the clock's
 *     thread; `now` is read before the lock, so an answer can arrive past its deadline before the
 *     timer has fired (CallbackLedger.arrival == .pastDeadline);
 *   - Completion.complete(_:)'s exactly-once claim (an atomic add outside the lock) and the callback id
 *     check in the machines' `answer`;
 *   - the threads: the driver (open a callback, finish, cancel, then cancel or walk away), merchant
 *     threads that call completions handed to them, the clock's thread, and whichever thread wins
 *     the drain, where the delegate's code runs: it answers synchronously, hands the completion to
 *     another thread, calls it twice (maybe from two threads at once), never calls it, or calls
 *     cancel() from inside the callback.
 *
 * Bounds keep it finite: at most MAXCB callbacks (ids 1..MAXCB), MAXACT driver actions, at most
 * two calls of each completion, NMERCHANT merchant threads.
 *
 * Everything under the lock is one d_step (the lock makes it indivisible). Steps outside the lock
 * that touch only thread-local data or commute with everything in between are joined to their
 * neighbours (noted where done), which keeps the state space small without losing behaviours.
 *
 * Nothing outside the lock touches shared data but the completions' claims (an atomic add on the
 * completion's own counter) and the clock: the drainer takes the lock again after each delegate
 * call (FlowRunner.drain -> nextStep), which ends the drain, under the lock, when nothing is left.
 * (Until issue 16 the drainer could leave without the lock, through an atomic compare-exchange on
 * a two-bit drainFlags; it saved under 5 % of a round trip and needed its own soundness argument,
 * and is gone, with its mutant.)
 *
 * Mutants: each must make spin report an error (Scripts/verify.sh checks that it does).
 *   -DBROKEN_ID        `answer` does not check that the id is the outstanding callback's, only that
 *                      some callback is outstanding;
 *   -DBROKEN_GATE      the completion's claim lets every call through as the first;
 *   -DBROKEN_DRAIN     every event drains, ignoring `draining`;
 *   -DBROKEN_PENDING   a driver action opens a callback while another is outstanding (no
 *                      callbackPending refusal);
 *   -DBROKEN_DEADLINE  no deadline is ever armed;
 *   -DBROKEN_RELEASE   the drainer finds the queue empty and ends the drain (clears `draining`)
 *                      in a second lock acquisition, without looking again: work that a thread
 *                      queued in between, seeing `draining` set, is never performed (a lost
 *                      wake-up);
 *   -DBROKEN_START     a callback's deadline starts (and is armed) when the machine opens it, not
 *                      when its delegate call is taken: the engine before the fix of README
 *                      finding 1.
 * The checks that were that finding's variants, -DE1_DELEGATE_VIEW and -DE4_CALL_IN_TIME, are
 * always on now: assertions in `drain`, e1_delegate_view, e4_call_in_time.
 */

/* -DLTL_ONLY turns the model's own assertions off, so that only an LTL property can report an
   error (the mutant checks use it to show that the LTL property itself catches the mutant). */
#ifdef LTL_ONLY
#define assert(e) skip
#endif

#ifndef MAXCB
#define MAXCB 2       /* callbacks the driver may open: ids 1..MAXCB (at most 4) */
#endif
#ifndef MAXACT
#define MAXACT 2      /* driver actions before it leaves */
#endif
#ifndef NMERCHANT
#define NMERCHANT 2   /* merchant threads (1 or 2), besides the threads that drain */
#endif
#define NID 5         /* size of the per-callback arrays */
#define QCAP 8        /* the work queue; every append asserts that it is not full */

/* The machine's state: the cases of the Swift `State` enums (README). */
#define IDLE  0       /* shipping .addressStep / .methodStep; authorization .sheet */
#define AWAIT 1       /* shipping .validating(Outstanding); authorization .awaiting(Outstanding, sheet) */
#define ENDED 2       /* .ended(outcome) */

/* Outcomes, for the reader: `end` is told which, nothing depends on it. */
#define O_FINISHED  1 /* shipping .finished; authorization .success */
#define O_CANCELLED 2 /* .cancelled */
#define O_TIMEDOUT  3 /* authorization .timedOut */
#define O_FAILED    4 /* .failed: an invalid update */

/* Events: the machines' mutating methods. */
#define EV_OPEN     1 /* enterAddress / selectShippingContact / ... / authorize: opens a callback */
#define EV_DONE     2 /* done(): ends the flow without a callback */
#define EV_CANCEL   3 /* cancel() */
#define EV_ANSWER   4 /* answer(id, first:, ...): a completion was called */
#define EV_DEADLINE 5 /* deadlinePassed(id, at:): the clock fired */

/* Effect<Call> */
#define E_NONE      0
#define E_REFUSED   1
#define E_CALL_CB   2 /* .call(didEnterAddress / didSelect... / authorize) */
#define E_CALL_TERM 3 /* .call(didFinish / didCancel) */

/* What a completion carries. */
#define A_CONTINUE 0  /* shipping .invalid, or .valid with methods; authorization: an update, a failure */
#define A_FINISH   1  /* shipping .valid without methods; authorization .success */
#define A_INVALID  2  /* an update that fails validation (spec E7) */

/* Observer: what became of each callback. */
#define CB_NONE     0
#define CB_OPEN     1 /* outstanding */
#define CB_ANSWERED 2 /* its completion took effect */
#define CB_STALE    3 /* ended otherwise: timed out, cancelled, the flow ended */

/* Deadline tickets on the clock (DeadlineHeap entries). */
#define T_NONE      0
#define T_SCHED     1
#define T_CANCELLED 2
#define T_FIRED     3

mtype = { W_CB, W_TERM, W_VIOL };   /* FlowRunner.Work: .call(a callback), .call(the terminal), .violation */

/* ---- configuration, chosen at start: the kind of flow and FlowOptions ---- */
bit authFlow;     /* 1: PaymentAuthorizationStateMachine; 0: ShippingAddressStateMachine */
bit timed;        /* FlowOptions.callbackTimeout != nil */
bit reports;      /* FlowOptions.onViolation != nil: violations are reported through the queue */

/* ---- the state machine (under the lock) ---- */
byte st = IDLE;
byte pend = 0;    /* machine.pending?.id: the outstanding callback, 0 for none */
byte lastID = 0;  /* CallbackLedger.lastID */
byte started = 0; /* the deadlines of callbacks 1..started have started (CallbackLedger.called): their
                     delegate calls have been taken; pend's deadline is CallbackLedger.deadline(of:) */

/* ---- RunnerLocked (under the lock) ---- */
chan work = [QCAP] of { mtype, byte };
bit terminalDone = 0;
bit delegateHeld = 1;  /* RunnerLocked.merchant != nil */
byte armed = 0;        /* RunnerLocked.armed?.id */

/* ---- who drains (RunnerLocked.draining, under the lock) ---- */
bit draining = 0;      /* a thread drains: it is in, or about to make, a delegate call */

/* ---- the clock ---- */
byte passed = 0;       /* time has reached the deadlines of callbacks 1..passed */
byte ticket[NID];

/* ---- completions handed to other threads ---- */
chan handoff = [8] of { byte };

/* ---- observers (ghost variables, no Swift counterpart) ---- */
byte cbSt[NID];        /* CB_* of each callback */
byte calls[NID];       /* calls of each completion */
byte applied[NID];     /* calls that took effect */
byte lateRec[NID];     /* calls recorded as lateCompletion */
byte twiceRec[NID];    /* calls recorded as completionCalledTwice */
byte nOpen = 0;        /* outstanding callbacks */
byte nTerm = 0;        /* terminal delegate calls made */
byte inCall = 0;       /* delegate calls in progress */
bit walkedAway = 0;    /* the driver left without a final cancel */
bit badApply = 0;      /* a completion took effect twice, when not outstanding, or after the end */
bit callAfterTerm = 0; /* a delegate call after the terminal one */
bit nested = 0;        /* an event raised inside a delegate call won the drain */
bit overlap = 0;       /* a delegate call started while another was in progress */
bit dropped = 0;       /* a delegate call taken after the delegate was released */
bit termWhileOpen = 0; /* the terminal call made while a callback was outstanding */
bit refusedChanged = 0;/* a refused action changed something (E9) */
bit e1Delegate = 0;    /* callback j called while another was outstanding (E1 as the delegate sees it) */
bit lateCall = 0;      /* callback j called after its deadline (E4: each callback its full deadline) */

/* The locals of every thread (inlines use their caller's locals). */
#define LOCALS \
  byte eff, cbid, nviol, nowP, cancelT, wk, wid, tmp, kind, mid, fid, st0, pend0, last0, i, step; \
  bit won, first, held, incall

/* ===================== the state machine (pure, under the lock) ===================== */

/* end(outcome): leave the state that held the outstanding callback, ask for the terminal call. */
inline endFlow(o) {
  if
  :: st == AWAIT && cbSt[pend] == CB_OPEN -> cbSt[pend] = CB_STALE; nOpen--
  :: else -> skip
  fi;
  st = ENDED; pend = 0; eff = E_CALL_TERM
}

/* violated(kind): log.violation, and nothing else (E2: a violation never changes the flow). */
inline violated() {
  nviol++;
  eff = E_NONE
}

/* deadlinePassed(id, at:) of either machine. */
inline deadlinePassed(id) {
  if
  :: st == AWAIT && pend == id ->
     cbSt[id] = CB_STALE; nOpen--;
     if
     :: authFlow -> nviol++; endFlow(O_TIMEDOUT)   /* log.violation(.completionTimedOut); end(.timedOut) */
     :: else -> st = IDLE; pend = 0; violated()    /* .addressStep(error:); violated(.completionTimedOut) */
     fi
  :: else -> eff = E_NONE                          /* answered or cancelled in time: a stale timer */
  fi
}

/* answer(id, first:, answer, at: now) of either machine; `nowP` is the time read before the lock. */
inline answer(id) {
  if
  :: !first -> twiceRec[id]++; violated()          /* completionCalledTwice */
  :: else ->
     if
#ifdef BROKEN_ID
     :: st != AWAIT -> lateRec[id]++; violated()
#else
     :: st != AWAIT || pend != id -> lateRec[id]++; violated()   /* lateCompletion */
#endif
     :: else ->
        if
        :: timed && id <= nowP ->                  /* arrival == .pastDeadline */
           lateRec[id]++;
           deadlinePassed(id); tmp = eff;          /* the deadline's own effect is not lost */
           violated();                             /* lateCompletion */
           if
           :: tmp == E_CALL_TERM -> eff = tmp
           :: else -> skip
           fi
        :: else ->                                 /* it takes effect */
           if
           :: cbSt[id] != CB_OPEN || applied[id] > 0 || st == ENDED -> badApply = 1
           :: else -> skip
           fi;
           assert(!badApply);                      /* E2 */
           applied[id]++; cbSt[id] = CB_ANSWERED; nOpen--;
           if
           :: kind == A_CONTINUE -> st = IDLE; pend = 0; eff = E_NONE
           :: kind == A_FINISH -> endFlow(O_FINISHED)
           :: kind == A_INVALID ->
              if
              :: authFlow -> nviol++; endFlow(O_FAILED)   /* E7: the authorization flow ends, failed */
              :: else -> st = IDLE; pend = 0; violated()  /* E7: the shipping flow stays on the address step */
              fi
           fi
        fi
     fi
  fi
}

/* One event, under the lock. */
inline decide(ev, id) {
  eff = E_NONE; nviol = 0; st0 = st; pend0 = pend; last0 = lastID;
  if
  :: ev == EV_OPEN ->
     if
#ifdef BROKEN_PENDING
     :: st != ENDED ->
#else
     :: st == IDLE ->
#endif
        lastID++; pend = lastID; st = AWAIT; cbSt[pend] = CB_OPEN; nOpen++; cbid = pend; eff = E_CALL_CB;
#ifdef BROKEN_START
        started = lastID;                          /* the deadline starts at open */
#endif
        skip
     :: else -> eff = E_REFUSED                    /* callbackPending, finished */
     fi
  :: ev == EV_DONE ->
     if
     :: st == IDLE -> endFlow(O_FINISHED)
     :: else -> eff = E_REFUSED
     fi
  :: ev == EV_CANCEL ->
     if
     :: st != ENDED -> endFlow(O_CANCELLED)        /* E3: accepted in every state that has not ended */
     :: else -> eff = E_REFUSED                    /* finished */
     fi
  :: ev == EV_ANSWER -> answer(id)
  :: ev == EV_DEADLINE -> deadlinePassed(id)
  fi;
  if
  :: eff == E_REFUSED && (st != st0 || pend != pend0 || lastID != last0 || nviol != 0) -> refusedChanged = 1
  :: else -> skip
  fi;
  assert(!refusedChanged);                         /* E9: a refusal changes nothing, calls nothing */
  assert(nOpen <= 1);                              /* E1: at most one outstanding callback */
  assert(ev != EV_OPEN || st0 != AWAIT || eff == E_REFUSED);      /* E1: callbackPending */
  assert(ev != EV_CANCEL || st0 == ENDED || eff == E_CALL_TERM);  /* E3: cancel always ends the flow */
  assert(st0 != ENDED || eff != E_CALL_CB);                       /* E5: nothing opens after the end */
  assert(st0 != ENDED || (ev != EV_OPEN && ev != EV_DONE && ev != EV_CANCEL) || eff == E_REFUSED);  /* E5 */
  printf("TRACE %d event %d id %d first %d late %d kind %d -> effect %d state %d pending %d violations %d\n",
         _pid, ev, id, first, (timed && id != 0 && id <= nowP), kind, eff, st, pend, nviol)
}

/* ===================== the engine: FlowRunner ===================== */

/* The callback whose deadline should be armed: the outstanding one, once its delegate call has been
   taken and its deadline started (FlowMachine.pending?.deadline != nil); 0 for none. */
#define TIMED_PEND ((timed && pend != 0 && pend <= started) -> pend : 0)

/* rearm(): under the lock, arm the deadline of the outstanding callback once it has started; leave
   the replaced ticket (cancelT) to be cancelled outside the lock. cancelT is 0 here: every send
   and every drain step cancels it first, and a take replaces no ticket. */
inline rearm() {
  assert(cancelT == 0);
  if
  :: armed != TIMED_PEND ->
     cancelT = armed; armed = 0;
     if
#ifdef BROKEN_DEADLINE
     :: false -> skip
#else
     :: TIMED_PEND != 0 -> ticket[pend] = T_SCHED; armed = pend   /* clock.schedule(at:) */
#endif
     :: else -> skip
     fi
  :: else -> skip
  fi
}

/* settle(): under the lock, queue the violations and the call, re-arm the deadline, claim the
   drain. The temporaries are cleared so that equal states compare equal.
   Claiming the drain, on RunnerLocked.draining:
   1. a call with nothing queued before it, and nobody draining: this thread drains and takes the
      call straight from the event;
   2. then, if work is queued or the flow has ended with its terminal call not done, and nobody
      drains: this thread drains (a drainer that is in a delegate call comes back under the lock
      and finds the work).
   Swift takes the call of 1 (and starts its deadline, delegateCalled) in settle, and the winner of
   2 its first item (nextStep) in settle too; here the drain's first step takes them, from the
   queue (the call of 1 is queued, and is then the only item): `draining` keeps every other thread
   from taking it in between, and no deadline of it can pass. */
inline settle() {
  do
  :: nviol > 0 && reports -> assert(nfull(work)); work!W_VIOL,0; nviol--
  :: else -> nviol = 0; break
  od;
  won = 0;
  if
  :: eff == E_CALL_CB || eff == E_CALL_TERM ->
     if
     :: len(work) == 0 && !draining -> draining = 1; won = 1   /* 1: nobody drains, nothing queued */
     :: else -> skip
     fi;
     assert(nfull(work));
     if
     :: eff == E_CALL_CB -> work!W_CB,cbid
     :: else -> work!W_TERM,0
     fi
  :: else -> skip
  fi;
  rearm();
  if
  :: (len(work) > 0 && !won) || (st == ENDED && !terminalDone) ->  /* 2: RunnerLocked.hasWork: a call taken in 1 is not queued */
#ifdef BROKEN_DRAIN
     won = 1;                                    /* every event drains */
#else
     if :: !draining -> won = 1 :: else -> skip fi;   /* nobody drains */
#endif
     draining = 1
  :: else -> skip
  fi;
  eff = 0; cbid = 0; nowP = 0; first = 0; kind = 0; tmp = 0; st0 = 0; pend0 = 0; last0 = 0; mid = 0; fid = 0
}

/* finish(): outside the flow's lock, cancel the replaced deadline, under the clock's lock. It is
   lazy: the timer may have taken it already and fire a stale deadline. */
inline clockCancel() {
  if
  :: cancelT != 0 && ticket[cancelT] == T_SCHED -> ticket[cancelT] = T_CANCELLED
  :: else -> skip
  fi;
  cancelT = 0
}

/* Completion.complete(_:)'s claim (an atomic add), then `clock.now`, both before the lock. One step:
   the claim commutes with everything but another claim of the same completion, the clock read with
   everything but the clock moving, so whatever runs between them can be moved before or after. */
inline claimAndReadClock(id) {
#ifdef BROKEN_GATE
  first = 1;
#else
  first = (calls[id] == 0);
#endif
  calls[id]++;
  nowP = passed
}

inline pickAnswer() {
  if
  :: kind = A_CONTINUE
  :: kind = A_FINISH
  :: kind = A_INVALID
  fi
}

/* An event raised inside a delegate call (a synchronous completion, cancel() from inside): it runs
   as any event does, and must never win the drain (E6: what it triggers runs after the call). */
inline sendNested(ev, id) {
  d_step { decide(ev, id); settle() };
  d_step {
    clockCancel();
    if
    :: won -> nested = 1
    :: else -> skip
    fi;
    assert(!nested)
  }
}

/* Hands completion `x` to a merchant thread (a Task, a network callback, ...). */
inline handOff(x) {
  d_step { assert(nfull(handoff)); handoff!x }
}

/* The delegate's code for callback `wid`, run by the draining thread, outside the lock. */
inline merchantCallback() {
  if
  :: handOff(wid)                                /* answers later, from another thread */
  :: skip                                        /* never answers */
  :: handOff(wid); handOff(wid)                  /* calls it twice, maybe from two threads at once */
  :: pickAnswer(); d_step { claimAndReadClock(wid) };
     sendNested(EV_ANSWER, wid)                  /* answers synchronously, inside the call */
  :: pickAnswer(); d_step { claimAndReadClock(wid) };
     sendNested(EV_ANSWER, wid); handOff(wid)    /* inside, then again later from another thread */
  :: sendNested(EV_CANCEL, 0); handOff(wid)      /* cancel() from inside, then answers later */
  fi
}

/* drain(): one thread at a time takes work under the lock and performs it outside.
   The step that takes a call also starts it (the entry checks); the call returns at this thread's
   next step, so other threads run while it is in progress. Taking a callback's call starts its
   deadline and arms it (nextStep: delegateCalled, rearm); the ticket it replaces, if any, is
   cancelled at the next step. Violation reports (onViolation) queued before the next call are
   made in the step that takes that call: they touch nothing else. Once a call has been
   performed (`incall`), the drainer takes the lock again (nextStep): the next item, or, with none,
   the end of the drain (`draining` cleared, and once the flow has ended the delegate released). */
inline drain() {
  do
  :: d_step {
       clockCancel();                            /* finish(): before the first take */
       if
       :: incall -> inCall--; incall = 0      /* the previous delegate call has returned */
       :: else -> skip
       fi;
       do
       :: work?[W_VIOL,0] -> work?W_VIOL,0; printf("TRACE %d reports a violation\n", _pid)
       :: else -> break
       od;
       if
       :: len(work) > 0 ->
          work?wk,wid; held = delegateHeld; step = 1;
          printf("TRACE %d calls %e %d\n", _pid, wk, wid);
          if :: inCall > 0 -> overlap = 1 :: else -> skip fi;
          inCall++; incall = 1;
          if :: nTerm > 0 -> callAfterTerm = 1 :: else -> skip fi;
          if :: !held -> dropped = 1 :: else -> skip fi;
          if
          :: wk == W_TERM ->
             nTerm++;
             if :: nOpen > 0 -> termWhileOpen = 1 :: else -> skip fi
          :: else ->
             i = 1;                           /* E1: no other callback is outstanding */
             do
             :: i <= MAXCB ->
                if :: i != wid && cbSt[i] == CB_OPEN -> e1Delegate = 1 :: else -> skip fi; i++
             :: else -> break
             od;
             i = 0;
             if :: timed && wid <= passed -> lateCall = 1 :: else -> skip fi;   /* E4: before its deadline */
             if
             :: wid > started -> started = wid /* delegateCalled -> CallbackLedger.called: the deadline starts, once */
             :: else -> skip
             fi;
             rearm()
          fi
#ifdef BROKEN_RELEASE
       :: else -> step = 3                     /* found empty; releases in a second acquisition */
#else
       :: else ->
          draining = 0; step = 2;             /* nextStep: the drain ends */
          if
          :: st == ENDED && !terminalDone -> terminalDone = 1; delegateHeld = 0   /* E5: release */
          :: else -> skip
          fi
#endif
       fi;
       assert(!overlap);                         /* E6: delegate calls never overlap */
       assert(!callAfterTerm);                   /* E5: no delegate call after the terminal one */
       assert(!dropped);                         /* E5: the delegate is held until the end */
       assert(!termWhileOpen);                   /* E1, E5: the terminal call ends every callback */
       assert(!e1Delegate);                      /* E1: the delegate never sees two callbacks outstanding */
       assert(!lateCall)                         /* E4: a callback's deadline starts at its delegate call */
     };
#ifdef BROKEN_RELEASE
     if
     :: step == 3 ->
        d_step {
          draining = 0; step = 2;                 /* work queued in between is never taken */
          if
          :: st == ENDED && !terminalDone && len(work) == 0 -> terminalDone = 1; delegateHeld = 0
          :: else -> skip
          fi
        }
     :: else -> skip
     fi;
#endif
     if
     :: step == 2 -> step = 0; wk = 0; wid = 0; held = 0; break
     :: step == 1 && wk == W_CB -> merchantCallback(); step = 0; wk = 0; wid = 0; held = 0
     :: else -> step = 0; wk = 0; wid = 0; held = 0       /* the terminal call: didFinish / didCancel */
     fi
  od
}

/* FlowRunner.send: decide under the lock, then (finish) cancel the replaced deadline and drain. */
inline send(ev, id) {
  d_step { decide(ev, id); settle() };
  if
  :: won -> won = 0; drain()
  :: else ->
     if
     :: cancelT != 0 -> d_step { clockCancel() }
     :: else -> skip
     fi
  fi
}

/* ===================== the threads ===================== */

/* The driver: MAXACT actions (at most MAXCB that open a callback), then it leaves: with a cancel
   (refused when the flow has ended) or by walking away. */
proctype Driver() {
  LOCALS;
  byte n = 0, nopen = 0;
  do
  :: n < MAXACT ->
     n++;
     if
     :: nopen < MAXCB -> nopen++; send(EV_OPEN, 0)
     :: send(EV_DONE, 0)
     :: send(EV_CANCEL, 0)
     fi
  :: else -> break
  od;
  if
  :: send(EV_CANCEL, 0)
  :: walkedAway = 1
  fi
}

/* A merchant thread: calls a completion it was handed (a Task, a network callback, ...). */
proctype Merchant() {
  LOCALS;
end:
  do
  :: d_step { handoff?mid; claimAndReadClock(mid) };
     pickAnswer();
     send(EV_ANSWER, mid)
  od
}

#define DUE(k) (k <= MAXCB && ticket[k] == T_SCHED && k <= passed)

/* The clock: time reaches the next deadline that has started; a due deadline fires, on the
   clock's thread. Deadlines start in the order of the ids (the calls are taken in that order), so
   they pass in that order too; a callback whose call has not been taken has none. */
proctype Timer() {
  LOCALS;
end:
  do
  :: d_step { timed && passed < started -> passed++; printf("TRACE clock reaches deadline %d\n", passed) }
  :: d_step {
       (DUE(1) || DUE(2) || DUE(3) || DUE(4)) ->
       fid = 1;
       do
       :: !DUE(fid) -> fid++                     /* popDue: the earliest live entry first */
       :: else -> break
       od;
       ticket[fid] = T_FIRED;
       printf("TRACE %d clock fires deadline %d\n", _pid, fid)
     };
     send(EV_DEADLINE, fid)
  od
}

/* When no thread can move any more (each has finished or waits for work that will not come). */
proctype Final() {
  byte k;
  timeout ->
  d_step {
    assert(walkedAway || (st == ENDED && nTerm == 1 && terminalDone && !delegateHeld));  /* E5 */
    assert(nTerm <= 1 && (nTerm == 1) == terminalDone);
    assert(len(work) == 0 && !draining);   /* the queue is drained, the drain over */
    assert(len(handoff) == 0);
    assert(nOpen == 0 || (walkedAway && !timed)); /* E4: with deadlines on, no callback is left open */
    k = 1;
    do
    :: k <= lastID ->
       assert(cbSt[k] != CB_NONE && (cbSt[k] != CB_OPEN || (walkedAway && !timed)));
       assert(applied[k] <= 1);                  /* E2: once at most */
       assert(calls[k] == applied[k] + lateRec[k] + twiceRec[k]);   /* every call counted once */
       assert(calls[k] == 0 || twiceRec[k] == calls[k] - 1);        /* all but the first: calledTwice */
       assert(ticket[k] != T_SCHED);
       k++
    :: else -> break
    od
  }
}

init {
  atomic {
    if :: authFlow = 0 :: authFlow = 1 fi;
    if :: timed = 0 :: timed = 1 fi;
    if :: reports = 0 :: reports = 1 fi;
    run Driver();
    run Merchant();
#if NMERCHANT > 1
    run Merchant();
#endif
    run Timer();
    run Final()
  }
}

/* ===================== LTL properties (pan -N name) =====================
   Scripts/verify.sh checks `e_safety`, the conjunction of the safety properties below (a
   conjunction holds exactly when each of its parts does), in one search, and each liveness
   property in a search of its own; `e_liveness` and the single safety properties are for reading,
   for running alone, and for the mutant checks. */

/* E1: at most one outstanding callback at any time. */
ltl e1_one_outstanding { [] (nOpen <= 1) }
/* E1 as the delegate sees it: when it is called for a callback, no other callback is outstanding. */
ltl e1_delegate_view { [] !e1Delegate }
/* E2: a completion takes effect at most once, only while its callback is outstanding, never after the end. */
ltl e2_applied_once { [] !badApply }
/* E4: each callback gets its full deadline: its delegate call is made before its deadline passes. */
ltl e4_call_in_time { [] !lateCall }
/* E5: at most one terminal call, and no delegate call after it. */
ltl e5_terminal_last { [] (nTerm <= 1 && !callAfterTerm) }
/* E6: delegate calls never overlap and never nest. */
ltl e6_no_overlap { [] (inCall <= 1 && !nested) }
/* E5, liveness: unless the customer walks away, every run reaches its one terminal call and
   releases the delegate. */
ltl e5_terminates { <> (walkedAway || (terminalDone && nTerm == 1)) }
/* E4, liveness: with deadlines on, an outstanding callback always ends, even if nobody answers
   and the customer walks away. */
ltl e4_no_hang { [] ((timed && nOpen > 0) -> <> (nOpen == 0)) }
/* E6, liveness: queued work is always performed (no lost wake-up of the drain). */
ltl e6_drained { [] ((len(work) > 0) -> <> (len(work) == 0)) }

/* All of the above, for one search each. */
ltl e_safety {
  [] (nOpen <= 1 && !e1Delegate && !badApply && !lateCall && nTerm <= 1 && !callAfterTerm && inCall <= 1 && !nested)
}
ltl e_liveness {
  (<> (walkedAway || (terminalDone && nTerm == 1)))
  && ([] ((timed && nOpen > 0) -> <> (nOpen == 0)))
  && ([] ((len(work) > 0) -> <> (len(work) == 0)))
}
