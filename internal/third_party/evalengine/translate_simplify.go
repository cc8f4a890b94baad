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

import "vitess.io/vitess/go/mysql/collations/colldata"

func (expr *Literal) constant() bool {
	return true
}

func (expr *BindVariable) constant() bool {
	return false
}

func (expr *TupleBindVariable) constant() bool {
	return false
}

func (expr *Column) constant() bool {
	return false
}

func (expr *BinaryExpr) constant() bool {
	return expr.Left.constant() && expr.Right.constant()
}

func (tuple TupleExpr) constant() bool {
	for _, subexpr := range tuple {
		if !subexpr.constant() {
			return false
		}
	}
	return true
}

func (expr *UnaryExpr) constant() bool {
	return expr.Inner.constant()
}

func (expr *Literal) simplify(_ *ExpressionEnv) error {
	return nil
}

func (expr *BindVariable) simplify(_ *ExpressionEnv) error {
	return nil
}

func (expr *TupleBindVariable) simplify(_ *ExpressionEnv) error {
	return nil
}

func (expr *Column) simplify(_ *ExpressionEnv) error {
	return nil
}

func (expr *BinaryExpr) simplify(env *ExpressionEnv) error {
	var err error
	expr.Left, err = simplifyExpr(env, expr.Left)
	if err != nil {
		return err
	}
	expr.Right, err = simplifyExpr(env, expr.Right)
	if err != nil {
		return err
	}
	return nil
}

func (expr *LikeExpr) simplify(env *ExpressionEnv) error {
	if err := expr.BinaryExpr.simplify(env); err != nil {
		return err
	}

	if lit, ok := expr.Right.(*Literal); ok {
		if b, ok := lit.inner.(*evalBytes); ok && (b.isVarChar() || b.isBinary()) {
			expr.MatchCollation = b.col.Collation
			coll := colldata.Lookup(expr.MatchCollation)
			expr.Match = coll.Wildcard(b.bytes, 0, 0, 0)
		}
	}
	return nil
}

func (inexpr *InExpr) simplify(env *ExpressionEnv) error {
	if err := inexpr.BinaryExpr.simplify(env); err != nil {
		return err
	}

	if err := inexpr.Right.simplify(env); err != nil {
		return err
	}

	return nil
}

func (tuple TupleExpr) simplify(env *ExpressionEnv) error {
	var err error
	for i, subexpr := range tuple {
		tuple[i], err = simplifyExpr(env, subexpr)
		if err != nil {
			return err
		}
	}
	return nil
}

func (expr *UnaryExpr) simplify(env *ExpressionEnv) error {
	var err error
	expr.Inner, err = simplifyExpr(env, expr.Inner)
	return err
}

func (c *CallExpr) constant() bool {
	return c.Arguments.constant()
}

func (c *CallExpr) simplify(env *ExpressionEnv) error {
	return c.Arguments.simplify(env)
}

func simplifyExpr(env *ExpressionEnv, e IR) (IR, error) {
	// strata: a constant part whose evaluation fails is left for
	// execution instead of failing the translation: it may sit in a CASE
	// branch that is never taken (MySQL evaluates only the branch it
	// takes), and where it is evaluated the same error comes then.
	if e.constant() {
		if v, ok := foldCompiled(env, e); ok {
			return v, nil
		}
		if simplified, err := e.eval(env); err == nil {
			return evalToIR(simplified), nil
		}
	}
	if err := e.simplify(env); err != nil {
		return e, nil
	}
	return e, nil
}

// evalToIR turns an internal eval result into an IR:
//   - if it’s an evalTuple, it recurses into a TupleExpr
//   - otherwise it wraps the single value in a Literal
func evalToIR(simplified eval) IR {
	if tuple, isTuple := simplified.(*evalTuple); isTuple {
		te := make(TupleExpr, len(tuple.t))
		for i, t := range tuple.t {
			te[i] = evalToIR(t)
		}
		return te
	}
	return &Literal{inner: simplified}
}

// foldCompiled evaluates the constant e compiled, so its value has the type
// the compiler aggregates statically (the interpreter types CASE and
// COALESCE from the values met), and returns it as a literal the VM's
// arena does not own (strata).
func foldCompiled(env *ExpressionEnv, e IR) (IR, bool) {
	if env.fold == nil {
		return nil, false
	}
	if _, isLit := e.(*Literal); isLit {
		return nil, false
	}
	comp := compiler{collation: env.fold.collation, env: env.fold.env, sqlmode: env.fold.sqlmode}
	p, err := func() (p *CompiledExpr, err error) {
		defer func() {
			if recover() != nil {
				p, err = nil, errDeoptimize
			}
		}()
		return comp.compile(e)
	}()
	if err != nil || p.interpret {
		return nil, false
	}
	res, err := env.EvaluateVM(p)
	if err != nil {
		return nil, false
	}
	if _, isTuple := res.v.(*evalTuple); isTuple {
		return nil, false
	}
	if res.v == nil {
		return NullExpr, true
	}
	if i, ok := res.v.(*evalInt64); ok && p.typed.Flag&flagIsBoolean != 0 {
		// Keep a boolean's identity (JSON_ARRAY(1=1) is [true]).
		return &Literal{inner: newEvalBool(i.i != 0)}, true
	}
	tc := evalCollation(res.v)
	v, err := valueToEval(res.Value(tc.Collation), tc, nil)
	if err != nil {
		return nil, false
	}
	lit := &Literal{inner: v}
	if _, isFloat := v.(*evalFloat); isFloat && p.typed.Size == fixedFloatSize {
		lit.fixed = p.typed.Scale // a DOUBLE's fixed decimals survive folding
	}
	return lit, true
}
