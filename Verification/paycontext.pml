/*
 * paycontext.pml: a Promela model of the pay context on the engine (the contract's P3-P6, E1-E6):
 * PayContextStateMachine's stages, decided under the lock of its FlowRunner, the work queue
 * drained by one thread at a time, the backend answering from its own Tasks, the merchant's
 * completions (Completion.complete(_:)'s claim, id checks), the round's deadline (the sheet's), the sheet as far as
 * the pay context sees it (answered through its handler, dismissed, its didFinish coming back as
 * sheetDismissed), and the driver's cancel racing all of it. Verification/README.md maps the names.
 *
 * The point is P5: a cancel (or the deadline) before the confirm request is sent ends the payment
 * at once as .userCancellation and the intent is never confirmed; while a confirmation is in
 * flight the cancel is deferred, willComplete is skipped and the real outcome is reported; and P6:
 * didComplete exactly once, after the sheet is gone, nothing after it.
 *
 * Bounds: MAXROUND authorizations (a retry after a failure starts another round), MAXACT driver
 * actions, at most two calls of each merchant completion.
 *
 * Mutants (each must make spin report an error; Scripts/verify.sh checks that it does):
 *   -DBROKEN_DEFER       a cancel while confirming ends the payment at once as a user cancellation;
 *   -DBROKEN_EARLY       a cancel while the intent is being retrieved is deferred too, and the
 *                        confirmation goes ahead.
 * A variant that verifies too (README, "Findings"):
 *   -DNO_ROUND_CHECK     backend results are taken without checking their round: the stage check
 *                        alone already ignores every late one.
 * A variant that shows a finding (README, "Findings"):
 *   -DSHEET_ENDS_ITSELF  the sheet may end on its own at any moment (as the former strict mode,
 *                        FlowOptions.isStrict, made it at a violation of one of its forwarded
 *                        callbacks; the Swift flows no longer end at violations, E2).
 */

/* -DLTL_ONLY turns the model's own assertions off, so that only an LTL property can report an
   error (the mutant checks use it to show that the LTL property itself catches the mutant). */
#ifdef LTL_ONLY
#define assert(e) skip
#endif

#ifndef MAXROUND
#define MAXROUND 2
#endif
#ifndef MAXACT
#define MAXACT 2
#endif
#define NID 5
#define QCAP 6

/* PayContextStateMachine.Stage */
#define S_SHEET      1  /* .sheet */
#define S_CREATING   2  /* .creatingPaymentMethod(Round) */
#define S_AWAIT_INT  3  /* .awaitingIntent(Round, Outstanding) */
#define S_RETRIEVING 4  /* .retrieving(Round) */
#define S_CONFIRMING 5  /* .confirming(Round, cancelDeferred:) */
#define S_AWAIT_WILL 6  /* .awaitingWillComplete(Round, Outstanding, Decision) */
#define S_CLOSING    7  /* .closing(Final) */
#define S_ENDED      8  /* .ended(Final) */

/* PaymentStatus of a Final (0: none, a Decision without a final outcome: the sheet stays) */
#define F_NONE    0
#define F_SUCCESS 1     /* .success */
#define F_ERROR   2     /* .error */
#define F_CANCEL  3     /* .userCancellation */

/* Sheet result status */
#define R_SUCCESS 1
#define R_FAILURE 2

/* Events */
#define EV_AUTH      1  /* authorizationRequested (the sheet's didAuthorizePayment) */
#define EV_CANCEL    2  /* cancel() */
#define EV_CREATED   3  /* paymentMethodCreated(round, result) */
#define EV_INTENT    4  /* intentAnswered(id, first:, answer) */
#define EV_RETRIEVED 5  /* intentRetrieved(round, result) */
#define EV_CONFIRMED 6  /* intentConfirmed(round, result) */
#define EV_WILL      7  /* willCompleteAnswered(id, first:, result) */
#define EV_DEADLINE  8  /* deadlinePassed(round) */
#define EV_SHEETGONE 9  /* sheetDismissed (the sheet's didFinish) */

/* Results carried by the events (`val`) */
#define V_OK        1   /* created; retrieved: needs confirming; confirmed: succeeded */
#define V_FAIL      2   /* an error */
#define V_DONE      3   /* retrieved: already succeeded */
#define V_BADSTATE  4   /* retrieved: invalidIntentState; confirmed: requires_action */
#define V_ZIP       5   /* confirmed: incorrect_zip (a retry unless the cancel was deferred) */
#define V_SECRET    6   /* intent answer: a client secret */
#define V_NOCONFIRM 7   /* intent answer: complete without confirming */

mtype = { W_CREATE, W_DIDCREATE, W_RETRIEVE, W_CONFIRM, W_WILL, W_ANSWER, W_DISMISS, W_COMPLETE,
          B_CREATE, B_RETRIEVE, B_CONFIRM };

bit timed;              /* FlowOptions.callbackTimeout != nil: the round runs under the sheet's deadline */

/* ---- the machine (under the lock) ---- */
byte stage = S_SHEET;   /* presented: present() and presentSheet are left out */
byte round = 0;         /* Round.id of the round in progress (0: none) */
byte lastRound = 0;
byte cb = 0;            /* the outstanding merchant callback (awaitingIntent, awaitingWillComplete) */
byte lastCB = 0;        /* CallbackLedger */
bit confirmSent = 0;    /* Round.confirmSent */
bit deferred = 0;       /* .confirming(cancelDeferred:) */
byte decResult = 0;     /* Decision.result.status */
byte decFinal = F_NONE; /* Decision.final?.status */
byte closing = F_NONE;  /* .closing(Final) / .ended(Final) */

/* ---- RunnerLocked ---- */
chan work = [QCAP] of { mtype, byte, byte };
bit draining = 0;
bit terminalDone = 0;
byte armed = 0;

/* ---- the clock, the sheet, the backend, the merchant's threads ---- */
byte passed = 0;        /* time has reached the deadlines of rounds 1..passed */
byte ticket[NID];
byte sheet = 1;         /* 1 open, 2 authorizing (its didAuthorizePayment waits for the pay context), 3 gone */
chan backend = [2] of { mtype, byte };
chan handoff = [8] of { mtype, byte };

/* ---- observers ---- */
byte calls[NID];        /* calls of merchant completion id */
byte applied[NID];
byte sheetAnswers[NID]; /* answers given to the sheet's handler, per round */
byte confirms = 0;      /* confirmIntent requests made (InMemoryStripeBackend.confirmCount) */
byte nComplete = 0;     /* didComplete calls */
byte reported = F_NONE; /* the status didComplete reported */
byte realConfirm = F_NONE; /* what the backend's confirmation did: success, or an error */
byte confirmsAtCancel = 0;
bit earlyCancel = 0;    /* a cancel or deadline was taken before any confirm request was sent */
bit cancelWhileConfirming = 0; /* a cancel or deadline arrived while the confirmation was in flight */
bit walkedAway = 0;
byte inCall = 0;
bit bad = 0;

#define LOCALS byte eff1, a1, b1, eff2, a2, eff3, nowP, cancelT, wk, wa, wb, val, mid, rid, step, i; \
               bit won, first, incall; mtype mk

/* ===================== the machine ===================== */

/* A backend result is for the round in progress, in the stage that waits for it. */
#ifdef NO_ROUND_CHECK
#define FOR_ROUND(s, id) (stage == s)
#else
#define FOR_ROUND(s, id) (stage == s && round == id)
#endif

/* queue a call (one event produces at most two: answerSheet/dismiss only come alone) */
inline call(k, a, b) {
  assert(nfull(work)); work!k,a,b
}

/* decide(decision): ask willComplete (an untimed callback). */
inline decideRound(res, fin) {
  assert(!deferred);                              /* P5: a deferred cancel skips willComplete */
  lastCB++; cb = lastCB; stage = S_AWAIT_WILL; decResult = res; decFinal = fin;
  call(W_WILL, cb, res)
}

/* finish(decision): answer the sheet; a final outcome closes it. */
inline finishRound(res, fin) {
  cb = 0;
  if
  :: fin == F_NONE -> stage = S_SHEET; round = 0; confirmSent = 0; deferred = 0; call(W_ANSWER, res, 0)
  :: else -> stage = S_CLOSING; closing = fin; round = 0; call(W_ANSWER, res, (res != R_SUCCESS))
  fi
}

/* Observer, independent of what the machine decides: a cancel or the round's deadline arrives
   before the round's confirm request was sent (P5: ends at once, never confirmed), or while the
   confirmation is in flight (P5: deferred; the confirmation's own outcome is reported). */
inline observeCancel() {
  if
  :: stage == S_CLOSING || stage == S_ENDED -> skip
  :: stage == S_CONFIRMING -> cancelWhileConfirming = 1
  :: else ->
     if
     :: !confirmSent && !earlyCancel -> earlyCancel = 1; confirmsAtCancel = confirms
     :: else -> skip
     fi
  fi
}

/* the default of cancel() and deadlinePassed: close with .userCancellation, dismiss the sheet */
inline cancelNow() {
  stage = S_CLOSING; closing = F_CANCEL; round = 0; cb = 0; call(W_DISMISS, 0, 0)
}

inline decide(ev, id, v) {
  if
  :: ev == EV_AUTH ->
     if
     :: stage == S_SHEET ->
        lastRound++; round = lastRound; confirmSent = 0; deferred = 0;
        stage = S_CREATING; call(W_CREATE, round, 0)
     :: else -> skip                              /* closing: the sheet is going away */
     fi
  :: ev == EV_CANCEL ->
     observeCancel();
     if
     :: stage == S_CLOSING || stage == S_ENDED -> skip   /* refused: finished */
#ifdef BROKEN_EARLY
     :: stage == S_CONFIRMING || stage == S_RETRIEVING -> deferred = 1
#endif
#ifndef BROKEN_DEFER
     :: stage == S_CONFIRMING -> deferred = 1      /* P5: deferred until the confirmation answers */
#endif
     :: stage == S_AWAIT_WILL && confirmSent && decFinal != F_NONE ->
        finishRound(decResult, decFinal)          /* the confirmation has answered: its outcome */
     :: else -> cancelNow()
     fi
  :: ev == EV_DEADLINE ->
     if
     :: round != 0 && round == id ->
        observeCancel();
        if
        :: stage == S_CONFIRMING -> deferred = 1
        :: stage == S_AWAIT_WILL && confirmSent && decFinal != F_NONE ->
           finishRound(decResult, decFinal)
        :: else -> cancelNow()
        fi
     :: else -> skip                              /* a stale timer */
     fi
  :: ev == EV_CREATED ->
     if
     :: FOR_ROUND(S_CREATING, id) ->
        if
        :: v == V_OK -> lastCB++; cb = lastCB; stage = S_AWAIT_INT; call(W_DIDCREATE, cb, 0)
        :: else -> decideRound(R_FAILURE, F_NONE)  /* the customer may retry */
        fi
     :: else -> skip                              /* a late backend answer: ignored */
     fi
  :: ev == EV_INTENT ->
     if
     :: !first -> skip                            /* completionCalledTwice */
     :: first && (stage != S_AWAIT_INT || cb != id) -> skip   /* lateCompletion */
     :: else ->
        if :: applied[id] > 0 -> bad = 1 :: else -> skip fi; assert(!bad);
        applied[id]++; cb = 0;
        if
        :: v == V_FAIL -> decideRound(R_FAILURE, F_ERROR)
        :: v == V_NOCONFIRM -> decideRound(R_SUCCESS, F_SUCCESS)
        :: v == V_SECRET -> stage = S_RETRIEVING; call(W_RETRIEVE, round, 0)
        fi
     fi
  :: ev == EV_RETRIEVED ->
     if
     :: FOR_ROUND(S_RETRIEVING, id) ->
        if
        :: v == V_FAIL || v == V_BADSTATE -> decideRound(R_FAILURE, F_ERROR)
        :: v == V_DONE -> decideRound(R_SUCCESS, F_SUCCESS)
#ifdef BROKEN_EARLY
        :: v == V_OK -> confirmSent = 1; stage = S_CONFIRMING; call(W_CONFIRM, round, 0)
#else
        :: v == V_OK -> confirmSent = 1; stage = S_CONFIRMING; deferred = 0; call(W_CONFIRM, round, 0)
#endif
        fi
     :: else -> skip
     fi
  :: ev == EV_CONFIRMED ->
     if
     :: FOR_ROUND(S_CONFIRMING, id) ->
        if
        :: v == V_OK -> eff1 = R_SUCCESS; eff2 = F_SUCCESS
        :: v == V_ZIP && !deferred -> eff1 = R_FAILURE; eff2 = F_NONE   /* P4: a retry */
        :: else -> eff1 = R_FAILURE; eff2 = F_ERROR
        fi;
        if
        :: deferred -> finishRound(eff1, eff2)    /* P5: the real outcome, without willComplete */
        :: else -> decideRound(eff1, eff2)
        fi
     :: else -> skip
     fi
  :: ev == EV_WILL ->
     if
     :: !first -> skip
     :: first && (stage != S_AWAIT_WILL || cb != id) -> skip
     :: else ->
        if :: applied[id] > 0 -> bad = 1 :: else -> skip fi; assert(!bad);
        applied[id]++;
        finishRound(decResult, decFinal)
     fi
  :: ev == EV_SHEETGONE ->
     if
     :: stage == S_ENDED -> skip
     :: else ->
        if
        :: stage == S_CLOSING -> skip
        :: else -> closing = F_CANCEL             /* the sheet ended on its own */
        fi;
        stage = S_ENDED; round = 0; cb = 0; call(W_COMPLETE, closing, 0)
     fi
  fi;
  printf("TRACE %d event %d id %d value %d -> stage %d round %d cb %d\n", _pid, ev, id, v, stage, round, cb)
}

inline settle() {
  if
  :: armed != round ->
     cancelT = armed; armed = 0;
     if
     :: round != 0 && timed -> ticket[round] = 1; armed = round
     :: else -> skip
     fi
  :: else -> cancelT = 0
  fi;
  if
  :: !draining && (len(work) > 0 || (stage == S_ENDED && !terminalDone)) -> draining = 1; won = 1
  :: else -> won = 0
  fi;
  eff1 = 0; eff2 = 0; first = 0; val = 0; mid = 0; rid = 0
}

inline clockCancel() {
  if
  :: cancelT != 0 && ticket[cancelT] == 1 -> ticket[cancelT] = 2
  :: else -> skip
  fi;
  cancelT = 0
}

inline sendNested(ev, id, v) {
  d_step { decide(ev, id, v); settle(); clockCancel(); assert(!won) }
}

inline pickIntent() {
  if :: val = V_SECRET :: val = V_NOCONFIRM :: val = V_FAIL fi
}

inline handOff(k) {
  d_step { assert(nfull(handoff)); handoff!k,wa }
}

/* The merchant's code for a callback (didCreatePaymentMethod or willComplete) */
inline merchant(ev, k) {
  if
  :: handOff(k)
  :: skip
  :: handOff(k); handOff(k)
  :: d_step { first = (calls[wa] == 0); calls[wa]++ };
     if :: ev == EV_INTENT -> pickIntent() :: else -> skip fi;
     sendNested(ev, wa, val)
  :: sendNested(EV_CANCEL, 0, 0); handOff(k)
  fi
}

/* The sheet, as the pay context drives it (PaymentAuthorizationFlow with authorizationIsTimed: false):
   its didFinish comes back, from this thread, as sheetDismissed. */
inline sheetHandler(res, dismiss) {
  d_step {
    sheetAnswers[lastRound]++; assert(sheetAnswers[lastRound] == 1);   /* once per round */
    if
    :: sheet == 3 -> skip                         /* the sheet ended on its own: a late completion */
    :: else ->
       assert(sheet == 2);                        /* the sheet waits for this round's answer */
       if
       :: res == R_SUCCESS || dismiss -> sheet = 3
       :: else -> sheet = 1                       /* failure: the sheet stays, shows the errors */
       fi
    fi
  };
  if
  :: sheet == 3 -> sendNested(EV_SHEETGONE, 0, 0)
  :: else -> skip
  fi
}

inline drain() {
  do
  :: d_step {
       clockCancel();
       if :: incall -> inCall--; incall = 0 :: else -> skip fi;
       if
       :: len(work) > 0 ->
          work?wk,wa,wb; step = 1;
          printf("TRACE %d performs %e %d %d\n", _pid, wk, wa, wb);
          assert(inCall == 0); inCall++; incall = 1;   /* E6 */
          assert(nComplete == 0);                      /* P6: nothing after didComplete */
          if
          :: wk == W_COMPLETE ->
             assert(sheet == 3);                       /* P6: after the sheet is gone */
             nComplete++; reported = wa;
             assert(!earlyCancel || reported == F_CANCEL);   /* P5: cancelled before the confirm */
             assert(!cancelWhileConfirming || reported == realConfirm);  /* P5: the real outcome */
          :: wk == W_CONFIRM -> assert(!earlyCancel)   /* P5: never confirmed after an early cancel */
          :: wk == W_WILL -> assert(!cancelWhileConfirming)   /* P5: willComplete skipped */
          :: else -> skip
          fi
       :: else ->
          draining = 0; step = 2;
          if :: stage == S_ENDED && !terminalDone -> terminalDone = 1 :: else -> skip fi
       fi
     };
     if
     :: step == 2 -> step = 0; break
     :: else -> skip
     fi;
     if
     :: wk == W_CREATE -> d_step { assert(nfull(backend)); backend!B_CREATE,wa }
     :: wk == W_RETRIEVE -> d_step { assert(nfull(backend)); backend!B_RETRIEVE,wa }
     :: wk == W_CONFIRM -> d_step { assert(nfull(backend)); backend!B_CONFIRM,wa }
     :: wk == W_DIDCREATE -> merchant(EV_INTENT, W_DIDCREATE)
     :: wk == W_WILL -> merchant(EV_WILL, W_WILL)
     :: wk == W_ANSWER -> sheetHandler(wa, wb)
     :: wk == W_DISMISS ->                         /* sheet.cancel(): refused once the sheet is gone */
        d_step {
          if
          :: sheet != 3 -> sheet = 3; step = 5
          :: else -> step = 0
          fi
        };
        if
        :: step == 5 -> sendNested(EV_SHEETGONE, 0, 0)
        :: else -> skip
        fi
     :: wk == W_COMPLETE -> skip                   /* didComplete */
     fi;
     step = 0; wk = 0; wa = 0; wb = 0
  od
}

inline send(ev, id, v) {
  d_step { decide(ev, id, v); settle() };
  if
  :: won -> won = 0; drain()
  :: else -> if :: cancelT != 0 -> d_step { clockCancel() } :: else -> skip fi
  fi
}

/* ===================== threads ===================== */

proctype Driver() {
  LOCALS;
  byte n = 0;
  do
  :: n < MAXACT ->
     n++;
     if
     :: d_step { sheet == 1 && lastRound < MAXROUND -> sheet = 2 };   /* authorize on the sheet */
        send(EV_AUTH, 0, 0)
     :: send(EV_CANCEL, 0, 0)
     fi
  :: else -> break
  od;
  if
  :: send(EV_CANCEL, 0, 0)
  :: walkedAway = 1
  fi
}

/* The backend's Tasks: one request in flight at a time per round. */
proctype Backend() {
  LOCALS;
end:
  do
  :: backend?mk,rid ->
     if
     :: mk == B_CREATE -> if :: val = V_OK :: val = V_FAIL fi; send(EV_CREATED, rid, val)
     :: mk == B_RETRIEVE -> if :: val = V_OK :: val = V_DONE :: val = V_BADSTATE :: val = V_FAIL fi;
        send(EV_RETRIEVED, rid, val)
     :: mk == B_CONFIRM ->
        if :: val = V_OK :: val = V_ZIP :: val = V_BADSTATE :: val = V_FAIL fi;
        d_step {
          confirms++;
          if :: val == V_OK -> realConfirm = F_SUCCESS :: else -> realConfirm = F_ERROR fi
        };
        send(EV_CONFIRMED, rid, val)
     fi
  od
}

proctype Merchant() {
  LOCALS;
end:
  do
  :: d_step { handoff?mk,mid; first = (calls[mid] == 0); calls[mid]++ };
     if
     :: mk == W_DIDCREATE -> pickIntent(); send(EV_INTENT, mid, val)
     :: else -> send(EV_WILL, mid, 0)
     fi
  od
}

#define DUE(k) (k <= MAXROUND && ticket[k] == 1 && k <= passed)

proctype Timer() {
  LOCALS;
end:
  do
  :: d_step { timed && passed < lastRound -> passed++ }
  :: d_step {
       (DUE(1) || DUE(2) || DUE(3)) ->
       rid = 1;
       do
       :: !DUE(rid) -> rid++
       :: else -> break
       od;
       ticket[rid] = 3
     };
     send(EV_DEADLINE, rid, 0)
  od
}

#ifdef SHEET_ENDS_ITSELF
/* README, "Findings": in the former strict mode (FlowOptions.isStrict, gone since E2 changed) the
   sheet ended on its own at the first violation of one of
   its own callbacks (e.g. the merchant calls a forwarded didSelectShippingContact handler a second
   time), at any moment, and its didFinish reaches the pay context as sheetDismissed. */
proctype SheetEndsItself() {
  LOCALS;
  d_step { sheet != 3 -> sheet = 3 };
  send(EV_SHEETGONE, 0, 0)
}
#endif

proctype Final() {
  timeout ->
  d_step {
    assert(walkedAway || (stage == S_ENDED && nComplete == 1 && terminalDone));  /* P6 */
    assert(nComplete <= 1);
    assert(len(work) == 0 && !draining && len(handoff) == 0 && len(backend) == 0);
    assert(!earlyCancel || (confirms == confirmsAtCancel && (nComplete == 0 || reported == F_CANCEL)));
    assert(stage != S_CLOSING);                  /* a closing payment always completes */
    assert(!timed || stage == S_SHEET || stage == S_ENDED)   /* the deadline ends a round nobody answers */
  }
}

init {
  atomic {
    if :: timed = 0 :: timed = 1 fi;
    run Driver();
    run Backend();
    run Merchant();
    run Timer();
#ifdef SHEET_ENDS_ITSELF
    run SheetEndsItself();
#endif
    run Final()
  }
}

/* P6: didComplete at most once; liveness: unless the customer walks away, it is made. */
ltl p6_complete_once { [] (nComplete <= 1) }
ltl p6_completes { <> (walkedAway || (nComplete == 1 && terminalDone)) }
/* P5: a deferred cancel reports what the confirmation decided, never a user cancellation. */
ltl p5_deferred_reports_confirmation { [] ((cancelWhileConfirming && nComplete == 1) -> reported == realConfirm) }
/* P5: after a cancel taken before any confirm request, the intent is never confirmed. */
ltl p5_early_cancel_never_confirms { [] (earlyCancel -> confirms == confirmsAtCancel) }

/* All the safety properties above, for one search (Scripts/verify.sh). */
ltl p_safety {
  [] (nComplete <= 1
      && (!(cancelWhileConfirming && nComplete == 1) || reported == realConfirm)
      && (!earlyCancel || confirms == confirmsAtCancel))
}
