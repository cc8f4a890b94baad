/*
Copyright 2023 The Vitess Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package evalengine

import (
	"errors"

	"sync/atomic"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vthash"
)

var errDeoptimize = errors.New("de-optimize")

type vmstate struct {
	stack []eval
	sp    int

	arena Arena
	hash  vthash.Hasher
	err   error

	flags struct {
		cmp  int
		null bool
	}
}

type CompiledExpr struct {
	code  []frame
	typed ctype
	stack int
	ir    IR
	// interpret: the compiler failed its own stack check; evaluate ir
	// with the interpreter (strata).
	interpret bool
}

func (c *CompiledExpr) IR() IR {
	return c.ir
}

func (c *CompiledExpr) IsExpr() {}

func (p *CompiledExpr) typeof(*ExpressionEnv) (ctype, error) {
	return p.typed, nil
}

func (p *CompiledExpr) eval(env *ExpressionEnv) (eval, error) {
	return p.ir.eval(env)
}

func (p *CompiledExpr) Format(buf *sqlparser.TrackedBuffer) {
	p.ir.format(buf)
}

func (p *CompiledExpr) FormatFast(buf *sqlparser.TrackedBuffer) {
	p.ir.format(buf)
}

var _ Expr = (*CompiledExpr)(nil)

// vmPanics counts compiled evaluations that panicked and were redone by the
// interpreter.
var vmPanics atomic.Int64

// VMPanics returns how many compiled evaluations panicked and were redone by
// the interpreter (each is a typing defect of the compiler to fix).
func VMPanics() int64 { return vmPanics.Load() }

// interpretTyped evaluates p with the interpreter, whose CASE/COALESCE
// type their result from the values met rather than statically: a DECIMAL-
// typed expression's result is brought to its static scale, as the compiled
// form would have shown it (strata).
func (p *CompiledExpr) interpretTyped(env *ExpressionEnv) (EvalResult, error) {
	e, err := p.ir.eval(env)
	if err == nil && e != nil && p.typed.Type == sqltypes.Decimal {
		e, err = evalCoerce(e, sqltypes.Decimal, p.typed.Size, p.typed.Scale, collations.CollationBinaryID, env.now, env.sqlmode.AllowZeroDate())
	}
	return EvalResult{v: e, collationEnv: env.collationEnv}, err
}

func (env *ExpressionEnv) EvaluateVM(p *CompiledExpr) (res EvalResult, err error) {
	// strata: an operator that meets a value its compile-time type did not
	// allow (a NULL typed not nullable, an INT typed DECIMAL) panics on a
	// type assertion. The interpreter has no such assumptions: evaluate
	// with it instead, and count the event so tests can find the cause.
	defer func() {
		if r := recover(); r != nil {
			vmPanics.Add(1)
			res, err = p.interpretTyped(env)
		}
	}()
	if p.interpret {
		return p.interpretTyped(env)
	}
	env.vm.arena.reset()
	env.vm.sp = 0
	env.vm.err = nil
	if len(env.vm.stack) < p.stack {
		env.vm.stack = make([]eval, p.stack)
	}

	code := p.code
	ip := 0

	for ip < len(code) {
		ip += code[ip](env)
		if env.vm.err != nil {
			goto err
		}
	}
	// strata: a program leaves exactly its result on the stack. Anything
	// else means an operator's NULL shortcut left the stack unbalanced,
	// and the value on top belongs to someone else: redo it interpreted.
	if env.vm.sp != 1 {
		vmPanics.Add(1)
		return p.interpretTyped(env)
	}
	return EvalResult{v: env.vm.stack[env.vm.sp-1], collationEnv: env.collationEnv}, nil

err:
	if env.vm.err == errDeoptimize {
		e, err := p.ir.eval(env)
		return EvalResult{v: e, collationEnv: env.collationEnv}, err
	}
	return EvalResult{collationEnv: env.collationEnv}, env.vm.err
}
