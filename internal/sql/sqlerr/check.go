package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// MySQL error numbers of CHECK and other constraints (SQLSTATE HY000).
const (
	NonBooleanExprForCheck                 sqlerror.ErrorCode = 3812 // ER_NON_BOOLEAN_EXPR_FOR_CHECK_CONSTRAINT
	ColumnCheckRefersOtherColumn           sqlerror.ErrorCode = 3813 // ER_COLUMN_CHECK_CONSTRAINT_REFERENCES_OTHER_COLUMN
	CheckNamedFunctionNotAllowed           sqlerror.ErrorCode = 3814 // ER_CHECK_CONSTRAINT_NAMED_FUNCTION_IS_NOT_ALLOWED
	CheckFunctionNotAllowed                sqlerror.ErrorCode = 3815 // ER_CHECK_CONSTRAINT_FUNCTION_IS_NOT_ALLOWED
	CheckVariables                         sqlerror.ErrorCode = 3816 // ER_CHECK_CONSTRAINT_VARIABLES
	CheckRefersAutoIncrementColumn         sqlerror.ErrorCode = 3818 // ER_CHECK_CONSTRAINT_REFERS_AUTO_INCREMENT_COLUMN
	CheckConstraintViolated                sqlerror.ErrorCode = 3819 // ER_CHECK_CONSTRAINT_VIOLATED
	CheckRefersUnknownColumn               sqlerror.ErrorCode = 3820 // ER_CHECK_CONSTRAINT_REFERS_UNKNOWN_COLUMN
	CheckConstraintNotFound                sqlerror.ErrorCode = 3821 // ER_CHECK_CONSTRAINT_NOT_FOUND
	CheckConstraintDupName                 sqlerror.ErrorCode = 3822 // ER_CHECK_CONSTRAINT_DUP_NAME
	CheckUsingFKReferActionColumn          sqlerror.ErrorCode = 3823 // ER_CHECK_CONSTRAINT_CLAUSE_USING_FK_REFER_ACTION_COLUMN
	MultipleConstraintsWithSameName        sqlerror.ErrorCode = 3939 // ER_MULTIPLE_CONSTRAINTS_WITH_SAME_NAME
	ConstraintNotFound                     sqlerror.ErrorCode = 3940 // ER_CONSTRAINT_NOT_FOUND
	AlterConstraintEnforcementNotSupported sqlerror.ErrorCode = 3941 // ER_ALTER_CONSTRAINT_ENFORCEMENT_NOT_SUPPORTED
	DependentByCheckConstraint             sqlerror.ErrorCode = 3959 // ER_DEPENDENT_BY_CHECK_CONSTRAINT
)

// CheckViolated is 3819: a row makes CHECK constraint name FALSE.
func CheckViolated(name string) error {
	return New(CheckConstraintViolated, sqlerror.SSUnknownSQLState, "Check constraint '%s' is violated.", name)
}

// CheckNotFound is 3821: the table has no CHECK constraint name.
func CheckNotFound(name string) error {
	return New(CheckConstraintNotFound, sqlerror.SSUnknownSQLState, "Check constraint '%s' is not found in the table.", name)
}

// CheckDupName is 3822: CHECK constraint name is taken in its database.
func CheckDupName(name string) error {
	return New(CheckConstraintDupName, sqlerror.SSUnknownSQLState, "Duplicate check constraint name '%s'.", name)
}

// TooLongIdent is 1059: an identifier longer than 64 characters.
func TooLongIdent(name string) error {
	return New(sqlerror.ERTooLongIdent, sqlerror.SSClientError, "Identifier name '%s' is too long", name)
}
